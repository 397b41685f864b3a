import { Button, Card, Group, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/PageHeader";
import { formatDateTime } from "@/lib/format";
import { TICKET_PAGE_SIZE, useTickets } from "../api";
import { TicketFilters, useTicketFilters } from "../components/TicketListControls";
import { TicketTable } from "../components/TicketTable";

/** /tickets — the company's tickets with search, status filter and paging. */
export default function TicketsPage() {
  const { t } = useTranslation();
  const filters = useTicketFilters();
  const list = useTickets(filters.page, TICKET_PAGE_SIZE, { orderBy: "desc", ...filters.query });
  return (
    <>
      <PageHeader
        title={t("tickets.list.title")}
        actions={
          <Button component={Link} to="/tickets/create" leftSection={<IconPlus size={16} />}>
            {t("tickets.list.create")}
          </Button>
        }
      />
      <Card withBorder radius="md" p="lg">
        <Group mb="md">
          <TicketFilters
            {...filters.filterProps}
            searchPlaceholder={t("tickets.list.searchPlaceholder")}
            statusLabel={t("tickets.list.statusFilter")}
            allStatusesLabel={t("tickets.list.allStatuses")}
          />
        </Group>
        <TicketTable
          query={list}
          labels={{
            number: t("tickets.list.number"),
            subject: t("tickets.list.subject"),
            status: t("tickets.list.status"),
            detail: t("tickets.list.detail"),
            empty: t("tickets.list.empty"),
          }}
          totalText={(count) => t("tickets.list.total", { count })}
          middle={[
            {
              header: t("tickets.list.category"),
              cell: (ticket) => (
                <Text size="sm" c="dimmed">
                  {[ticket.parentCategory?.name, ticket.category?.name].filter(Boolean).join(" / ")}
                </Text>
              ),
            },
          ]}
          end={[{ header: t("tickets.list.updated"), cell: (ticket) => formatDateTime(ticket.updated_Date) }]}
          detailHref={(id) => `/tickets/${id}`}
          page={filters.page}
          pageSize={TICKET_PAGE_SIZE}
          onPage={filters.setPage}
          rowTestId="ticket-list-row"
        />
      </Card>
    </>
  );
}
