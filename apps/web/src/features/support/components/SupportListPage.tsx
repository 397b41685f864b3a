import { Card, Stack, type TableProps, Text, Title } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { type Column, DataTable } from "@/components/table/DataTable";

/** A support list: its title, what it shows, and a table of `rows` (or the section's empty text). */
export function SupportListPage<T>({
  section,
  query,
  columns,
  table,
  children,
}: {
  section: "connectionChecks" | "deletions";
  query: UseQueryResult<T[]>;
  columns: readonly Column[];
  table?: TableProps;
  children: (rows: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const title = t(`support.${section}.title`);
  return (
    <Stack gap="md">
      <Title order={1} fz={20}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {t(`support.${section}.text`)}
      </Text>
      <QueryBoundary
        query={query}
        isEmpty={(d) => d.length === 0}
        emptyMessage={t(`support.${section}.empty`)}
      >
        {(rows) => (
          <Card p={0}>
            <DataTable striped aria-label={title} {...table} columns={columns}>
              {children(rows)}
            </DataTable>
          </Card>
        )}
      </QueryBoundary>
    </Stack>
  );
}
