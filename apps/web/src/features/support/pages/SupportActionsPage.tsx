import { Card, Code, Table, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DataTable } from "@/components/table/DataTable";
import { formatDateTime } from "@/lib/format";
import { useSupportActions } from "../api";

const ACTION_KEYS: Record<
  string,
  "ticketReply" | "ticketClose" | "ticketView" | "licenseUpdate" | "announcementCreate"
> = {
  "ticket.reply": "ticketReply",
  "ticket.close": "ticketClose",
  "ticket.view": "ticketView",
  "license.update": "licenseUpdate",
  "announcement.create": "announcementCreate",
};

/** /support/actions — the audit trail of everything the support team did. */
export default function SupportActionsPage() {
  const { t } = useTranslation();
  const actions = useSupportActions();
  return (
    <Card withBorder radius="md" p="lg">
      <Title order={1} fz={20} mb="md">
        {t("support.actions.title")}
      </Title>
      <QueryBoundary
        query={actions}
        isEmpty={(d) => d.length === 0}
        emptyMessage={t("support.actions.empty")}
      >
        {(data) => (
          <DataTable
            minWidth={760}
            verticalSpacing="xs"
            columns={[
              t("support.actions.date"),
              t("support.actions.user"),
              t("support.actions.action"),
              t("support.actions.target"),
              t("support.actions.details"),
            ]}
          >
            {data.map((a) => {
              const key = ACTION_KEYS[a.action];
              return (
                <Table.Tr key={a.id}>
                  <Table.Td>{formatDateTime(a.created_Date)}</Table.Td>
                  <Table.Td>{a.supportUser}</Table.Td>
                  <Table.Td>{key ? t(`support.actions.${key}`) : a.action}</Table.Td>
                  <Table.Td>
                    {[
                      a.companyId ? t("support.actions.companyTarget", { id: a.companyId }) : null,
                      a.ticketId ? t("support.actions.ticketTarget", { id: a.ticketId }) : null,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </Table.Td>
                  <Table.Td>
                    <Code>{JSON.stringify(a.details)}</Code>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </DataTable>
        )}
      </QueryBoundary>
    </Card>
  );
}
