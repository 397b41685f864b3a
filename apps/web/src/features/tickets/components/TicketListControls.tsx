import { Group, Pagination, Select, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { paginationControlProps } from "@/components/table/ServerPagination";
import { TICKET_STATUS_VALUES } from "../status";

/** Page, search and status of a ticket list; changing a filter goes back to page 1. */
export function useTicketFilters() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const [searchKey] = useDebouncedValue(search.trim(), 300);
  return {
    page,
    setPage,
    query: { searchKey, status: status === null ? undefined : Number(status) },
    filterProps: {
      search,
      onSearch: (value: string) => {
        setSearch(value);
        setPage(1);
      },
      status,
      onStatus: (value: string | null) => {
        setStatus(value);
        setPage(1);
      },
    },
  };
}

type FilterProps = {
  search: string;
  onSearch: (value: string) => void;
  status: string | null;
  onStatus: (value: string | null) => void;
  searchPlaceholder: string;
  statusLabel: string;
  allStatusesLabel: string;
};

/** Search box and status filter above a ticket list (customer and support). */
export function TicketFilters(p: FilterProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={p.searchPlaceholder}
        aria-label={p.searchPlaceholder}
        value={p.search}
        onChange={(e) => p.onSearch(e.currentTarget.value)}
        w={280}
      />
      <Select
        aria-label={p.statusLabel}
        placeholder={p.allStatusesLabel}
        clearable
        data={TICKET_STATUS_VALUES.map((s) => ({ value: String(s), label: t(`tickets.status.${s}`) }))}
        value={p.status}
        onChange={p.onStatus}
        w={200}
      />
    </Group>
  );
}

type PagerProps = {
  totalText: string;
  total: number;
  pageSize: number;
  page: number;
  onPage: (page: number) => void;
};

/** The total and the page buttons under a ticket list. */
export function TicketPager({ totalText, total, pageSize, page, onPage }: PagerProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {totalText}
      </Text>
      <Pagination
        total={Math.max(1, Math.ceil(total / pageSize))}
        value={page}
        onChange={onPage}
        size="sm"
        getControlProps={paginationControlProps(t)}
      />
    </Group>
  );
}
