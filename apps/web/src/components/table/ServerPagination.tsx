import { Group, Pagination } from "@mantine/core";

type Props = { totalCount: number; pageSize: number; page: number; onChange: (page: number) => void };

/** Pages of a server-paged list, on the right; nothing when everything fits on one page. */
export function ServerPagination({ totalCount, pageSize, page, onChange }: Props) {
  if (totalCount <= pageSize) return null;
  return (
    <Group justify="flex-end">
      <Pagination total={Math.ceil(totalCount / pageSize)} value={page} onChange={onChange} size="sm" />
    </Group>
  );
}
