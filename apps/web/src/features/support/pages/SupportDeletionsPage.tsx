import { Badge, Card, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { formatDate, formatDateTime } from "@/lib/format";
import { useSupportDeletions } from "../api";

/** /support/deletions — companies whose KVKK deletion request is waiting out its grace period. */
export default function SupportDeletionsPage() {
  const { t } = useTranslation();
  const deletions = useSupportDeletions();
  return (
    <Stack gap="md">
      <Title order={1} fz={20}>
        {t("support.deletions.title")}
      </Title>
      <Text size="sm" c="dimmed">
        {t("support.deletions.text")}
      </Text>
      <QueryBoundary
        query={deletions}
        isEmpty={(d) => d.length === 0}
        emptyMessage={t("support.deletions.empty")}
      >
        {(rows) => (
          <Card p={0}>
            <ResponsiveTable striped highlightOnHover aria-label={t("support.deletions.title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("support.deletions.company")}</Table.Th>
                  <Table.Th>{t("support.deletions.requestedBy")}</Table.Th>
                  <Table.Th>{t("support.deletions.requested")}</Table.Th>
                  <Table.Th>{t("support.deletions.due")}</Table.Th>
                  <Table.Th>{t("support.deletions.daysLeft")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      {row.companyName}{" "}
                      <Text span c="dimmed" size="xs">
                        #{row.companyId}
                      </Text>
                    </Table.Td>
                    <Table.Td>{row.requestedBy ?? "-"}</Table.Td>
                    <Table.Td>{formatDateTime(row.requested_Date)}</Table.Td>
                    <Table.Td>{formatDate(row.due_Date)}</Table.Td>
                    <Table.Td>
                      <Badge color={row.daysLeft <= 3 ? "red" : "gray"} variant="light">
                        {row.daysLeft}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ResponsiveTable>
          </Card>
        )}
      </QueryBoundary>
    </Stack>
  );
}
