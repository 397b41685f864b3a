import { Card, Group, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { TicketFilters, useTicketFilters } from "@/features/tickets/components/TicketListControls";
import { TicketTable } from "@/features/tickets/components/TicketTable";
import { SUPPORT_PAGE_SIZE, useSupportInbox } from "../api";
import { waitedFor } from "../components/age";

/** /support — every company's tickets, waiting-on-us first, oldest first. */
export default function SupportInboxPage() {
  const { t } = useTranslation();
  const filters = useTicketFilters();
  const inbox = useSupportInbox(filters.page, filters.query);
  return (
    <Card withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} fz={20}>
          {t("support.inbox.title")}
        </Title>
        <TicketFilters
          {...filters.filterProps}
          searchPlaceholder={t("support.inbox.searchPlaceholder")}
          statusLabel={t("support.inbox.statusFilter")}
          allStatusesLabel={t("support.inbox.allStatuses")}
        />
      </Group>
      <TicketTable
        query={inbox}
        labels={{
          number: t("support.inbox.number"),
          subject: t("support.inbox.subject"),
          status: t("support.inbox.status"),
          detail: t("support.inbox.open"),
          empty: t("support.inbox.empty"),
        }}
        totalText={(count) => t("support.inbox.total", { count })}
        middle={[{ header: t("support.inbox.company"), cell: (ticket) => ticket.company.name }]}
        end={[
          {
            header: t("support.inbox.waiting"),
            cell: (ticket) => {
              const age = waitedFor(ticket.updated_Date);
              return t(`support.age.${age.unit}`, { count: age.count });
            },
          },
        ]}
        detailHref={(id) => `/support/tickets/${id}`}
        page={filters.page}
        pageSize={SUPPORT_PAGE_SIZE}
        onPage={filters.setPage}
        rowTestId="support-inbox-row"
      />
    </Card>
  );
}
