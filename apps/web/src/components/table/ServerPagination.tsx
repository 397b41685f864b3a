import { Group, Pagination } from "@mantine/core";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/** Names for a pagination's arrow buttons, which show only an icon (axe: button-name). */
export const paginationControlProps =
  (t: TFunction) => (control: "first" | "previous" | "last" | "next") => ({
    "aria-label": t(`common.pagination.${control}`),
  });

type Props = { totalCount: number; pageSize: number; page: number; onChange: (page: number) => void };

/** Pages of a server-paged list, on the right; nothing when everything fits on one page. */
export function ServerPagination({ totalCount, pageSize, page, onChange }: Props) {
  const { t } = useTranslation();
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
