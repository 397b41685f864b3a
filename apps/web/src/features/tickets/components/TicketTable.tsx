import type { PagedList, Ticket } from "@ep/contracts";
import { Anchor, Table, Text } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { TicketAvatars } from "./TicketAvatars";
import { TicketPager } from "./TicketListControls";
import { TicketStatusBadge } from "./TicketStatusBadge";

export type TicketColumn<T> = { header: string; cell: (ticket: T) => ReactNode };

type Props<T extends Ticket> = {
  query: UseQueryResult<PagedList<T>>;
  labels: { number: string; subject: string; status: string; detail: string; empty: string };
  totalText: (count: number) => string;
  /** Columns between the subject and the avatars (category, company…) and after the status. */
  middle: TicketColumn<T>[];
  end: TicketColumn<T>[];
  detailHref: (id: number) => string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  rowTestId: string;
};

/** A paged ticket table: number, subject, avatars with the 'F' circle, status, a detail link. */
export function TicketTable<T extends Ticket>(p: Props<T>) {
  return (
    <QueryBoundary query={p.query} isEmpty={(d) => d.dataList.length === 0} emptyMessage={p.labels.empty}>
      {(data) => (
        <>
          <ResponsiveTable minWidth={760} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{p.labels.number}</Table.Th>
                <Table.Th>{p.labels.subject}</Table.Th>
                {p.middle.map((c) => (
                  <Table.Th key={c.header}>{c.header}</Table.Th>
                ))}
                <Table.Th />
                <Table.Th>{p.labels.status}</Table.Th>
                {p.end.map((c) => (
                  <Table.Th key={c.header}>{c.header}</Table.Th>
                ))}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.dataList.map((ticket) => (
                <Table.Tr key={ticket.id} data-testid={p.rowTestId}>
                  <Table.Td>#{ticket.id}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500} lineClamp={1}>
                      {ticket.subject}
                    </Text>
                  </Table.Td>
                  {p.middle.map((c) => (
                    <Table.Td key={c.header}>{c.cell(ticket)}</Table.Td>
                  ))}
                  <Table.Td>
                    <TicketAvatars ticket={ticket} />
                  </Table.Td>
                  <Table.Td>
                    <TicketStatusBadge status={ticket.status} />
                  </Table.Td>
                  {p.end.map((c) => (
                    <Table.Td key={c.header}>{c.cell(ticket)}</Table.Td>
                  ))}
                  <Table.Td>
                    <Anchor component={Link} to={p.detailHref(ticket.id)} size="sm">
                      {p.labels.detail}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
          <TicketPager
            totalText={p.totalText(data.totalCount)}
            total={data.totalCount}
            pageSize={p.pageSize}
            page={p.page}
            onPage={p.onPage}
          />
        </>
      )}
    </QueryBoundary>
  );
}
