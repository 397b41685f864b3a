import { Group, Pagination } from "@mantine/core";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Names for a pagination's arrow buttons, which show only an icon (axe: button-name). */
export const paginationControlProps =
  (t: TFunction) => (control: "first" | "previous" | "last" | "next") => ({
    "aria-label": t(`common.pagination.${control}`),
  });

/** The page a server-paged list shows, and its size: what its query asks for and its pagination moves. */
export function usePager(pageSize: number) {
  const [page, setPage] = useState(1);
  return { page, setPage, pageSize };
}

export type Pager = ReturnType<typeof usePager>;

/** Pages of a server-paged list, on the right; nothing when everything fits on one page. */
export function ServerPagination({ pager, totalCount }: { pager: Pager; totalCount: number }) {
  const { t } = useTranslation();
  const { page, setPage: onChange, pageSize } = pager;
  if (totalCount <= pageSize) return null;
  return (
    <Group justify="flex-end">
      <Pagination
        total={Math.ceil(totalCount / pageSize)}
        value={page}
        onChange={onChange}
        size="sm"
        getControlProps={paginationControlProps(t)}
      />
    </Group>
  );
}
