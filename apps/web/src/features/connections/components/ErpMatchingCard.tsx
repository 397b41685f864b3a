import type { ErpMatchingImportResult } from "@ep/contracts";
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconFileImport, IconSearch, IconTrash } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { SectionCard } from "@/features/account/components/SectionCard";
import { errorMessage } from "@/lib/errors";
import { useCreateErpMatching, useDeleteErpMatching, useErpMatchings, useImportErpMatchings } from "../api";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The import call takes CSV text; a workbook saved in Excel is turned into the same text first. */
async function importText(file: File): Promise<string> {
  if (!file.name.toLowerCase().endsWith(".xlsx") && file.type !== XLSX_TYPE) return file.text();
  const { spreadsheetToCsv } = await import("@/lib/spreadsheet");
  try {
    return await spreadsheetToCsv(await file.arrayBuffer());
  } catch {
    throw new UnreadableFile();
  }
}

/** A file that is not a workbook exceljs can open (renamed, damaged, or the old .xls format). */
class UnreadableFile extends Error {}

/** ERP matching: manual links between an ERP code and a shop code, one by one or from a CSV/Excel file. */
export function ErpMatchingCard() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const list = useErpMatchings(debounced);
  const create = useCreateErpMatching();
  const remove = useDeleteErpMatching();
  const importCsv = useImportErpMatchings();
  const [erpSku, setErpSku] = useState("");
  const [shopSku, setShopSku] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [imported, setImported] = useState<ErpMatchingImportResult | null>(null);
  const title = t("connections.matching.title");

  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { message } = await create.mutateAsync({ erpSku: erpSku.trim(), shopSku: shopSku.trim() });
      notifications.show({ color: "green", message });
      setErpSku("");
      setShopSku("");
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const onFile = async (file: File | null) => {
    if (!file) return;
    setError(null);
    setImported(null);
    try {
      setImported(await importCsv.mutateAsync(await importText(file)));
    } catch (e) {
      setError(e instanceof UnreadableFile ? t("connections.matching.unreadable") : errorMessage(e));
    }
  };

  return (
    <SectionCard title={title}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t("connections.matching.hint")}
        </Text>
        <form onSubmit={onAdd} aria-label={title}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t("connections.matching.erpSku")}
              value={erpSku}
              onChange={(e) => setErpSku(e.currentTarget.value)}
              maxLength={100}
            />
            <TextInput
              label={t("connections.matching.shopSku")}
              value={shopSku}
              onChange={(e) => setShopSku(e.currentTarget.value)}
              maxLength={100}
            />
            <Button type="submit" loading={create.isPending} disabled={!erpSku.trim() || !shopSku.trim()}>
              {t("connections.matching.add")}
            </Button>
            <FileButton onChange={onFile} accept={`.csv,.xlsx,text/csv,text/plain,${XLSX_TYPE}`}>
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconFileImport size={16} />}
                  loading={importCsv.isPending}
                >
                  {t("connections.matching.import")}
                </Button>
              )}
            </FileButton>
          </Group>
        </form>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {imported && (
          <Alert color={imported.refused ? "yellow" : "green"} variant="light" role="status">
            <Text size="sm" mb="xs">
              {t("connections.matching.importResult", {
                accepted: imported.accepted,
                refused: imported.refused,
              })}
            </Text>
            {imported.rows
              .filter((r) => !r.accepted)
              .slice(0, 50)
              .map((r) => (
                <Text key={r.row} size="xs">
                  {t("connections.matching.row", { row: r.row })}: {r.erpSku || "-"} → {r.shopSku || "-"} —{" "}
                  {r.reason}
                </Text>
              ))}
          </Alert>
        )}
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t("connections.matching.search")}
          aria-label={t("connections.matching.search")}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <QueryBoundary
          query={list}
          minHeight={80}
          isEmpty={(rows) => rows.length === 0}
          emptyMessage={t("connections.matching.empty")}
        >
          {(rows) => (
            <ResponsiveTable withTableBorder striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("connections.matching.erpSku")}</Table.Th>
                  <Table.Th>{t("connections.matching.shopSku")}</Table.Th>
                  <Table.Th w={60} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{m.erpSku}</Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        {m.shopSku}
                        <Badge size="xs" variant="light" color="gray">
                          {m.shopVariantId.slice(0, 8)}
                        </Badge>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t("connections.matching.delete", { code: m.erpSku })}
                        loading={remove.isPending && remove.variables === m.id}
                        onClick={() => remove.mutate(m.id)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ResponsiveTable>
          )}
        </QueryBoundary>
      </Stack>
    </SectionCard>
  );
}
