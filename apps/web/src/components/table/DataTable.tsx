import { Table, type TableProps } from "@mantine/core";
import type { ReactNode } from "react";
import { ResponsiveTable } from "./ResponsiveTable";

/** A column header; `{ label, align: "right" }` for number columns, "" for an actions column. */
export type Column = ReactNode | { label: ReactNode; align: "right" };

const isAligned = (c: Column): c is { label: ReactNode; align: "right" } =>
  typeof c === "object" && c !== null && "align" in c;

/** A responsive table with one header row from `columns` (none without); the children are its body rows. */
export function DataTable({
  columns,
  children,
  ...props
}: TableProps & { minWidth?: number; columns?: readonly Column[] }) {
  return (
    <ResponsiveTable {...props}>
      {columns && (
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) =>
              isAligned(c) ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                <Table.Th key={i} ta={c.align}>
                  {c.label}
                </Table.Th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                <Table.Th key={i}>{c}</Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>{children}</Table.Tbody>
    </ResponsiveTable>
  );
}
