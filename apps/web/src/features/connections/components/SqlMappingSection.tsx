import { SQL_QUERY_NAMES, type SqlPreview, type SqlQueryName } from "@ep/contracts";
import {
  Alert,
  Badge,
  Button,
  Group,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { IconDatabase } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { errorMessage } from "@/lib/errors";
import { HASH_TARGET } from "@/lib/scroll-to-hash";
import { useSqlPreview } from "../api";
import {
  fieldsOf,
  missingRequired,
  parseSqlMapping,
  serializeSqlMapping,
  withQuery,
} from "../sql-mapping-form";
import { FileExchangeOverviewPanel, FileUploadBox } from "./FileExchangeSection";

type Props = {
  /** The connection's `sqlConfig` field (JSON). */
  value: string;
  onChange: (value: string) => void;
  /** The saved connection, when there is one: "Önizle" runs through its agent. */
  connectionId?: number;
};

/**
 * "SQL ile bağlantı": the merchant's (or our support team's) SELECTs for a system with no API, each
 * with its column mapping, "Önizle" with the first rows and how each row maps, and the order write.
 */
export function SqlMappingSection({ value, onChange, connectionId }: Props) {
  const { t } = useTranslation();
  const form = useMemo(() => parseSqlMapping(value), [value]);
  const [tab, setTab] = useState<SqlQueryName>("products");
  const [preview, setPreview] = useState<SqlPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const run = useSqlPreview();
  const missing = missingRequired(form);
  const update = (next: typeof form) => onChange(serializeSqlMapping(next));
  const q = form.queries[tab];

  const onPreview = async () => {
    if (!connectionId) return;
    setPreview(null);
    setPreviewError(null);
    try {
      setPreview(await run.mutateAsync({ connectionId, query: tab, sqlConfig: value }));
    } catch (error) {
      setPreviewError(errorMessage(error));
    }
  };

  return (
    <Stack gap="sm" data-testid="sql-mapping" id="sql-mapping" style={HASH_TARGET}>
      <Group gap="xs">
        <IconDatabase size={18} aria-hidden />
        <Title order={3} fz="md" fw={600}>
          {t("connections.sqlMapping.title")}
        </Title>
        <Badge variant="light" color="teal">
          {t("connections.sqlMapping.badge")}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {t("connections.sqlMapping.honest")}
      </Text>
      <Tabs
        value={tab}
        onChange={(v) => {
          if (!v) return;
          setTab(v as SqlQueryName);
          setPreview(null);
        }}
      >
        <Tabs.List>
          {SQL_QUERY_NAMES.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`connections.sqlMapping.queries.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <SqlField
        label={t("connections.sqlMapping.sql")}
        description={t("connections.sqlMapping.sqlHelp")}
        minRows={3}
        value={q.sql}
        onChange={(sql) => update(withQuery(form, tab, { sql }))}
      />
      <TextInput
        label={t("connections.sqlMapping.keyColumn")}
        description={t("connections.sqlMapping.keyColumnHelp")}
        value={q.keyColumn}
        onChange={(e) => update(withQuery(form, tab, { keyColumn: e.currentTarget.value }))}
      />
      <Text size="sm" fw={500}>
        {t("connections.sqlMapping.mapping")}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {fieldsOf(tab).map(({ field, required }) => (
          <TextInput
            key={field}
            size="xs"
            label={t(`connections.sqlMapping.fields.${field}`)}
            withAsterisk={required}
            error={
              missing.some((m) => m.query === tab && m.field === field)
                ? t("connections.sqlMapping.required")
                : undefined
            }
            placeholder={preview?.columns[0]}
            value={q.columns[field] ?? ""}
            onChange={(e) =>
              update(withQuery(form, tab, { columns: { ...q.columns, [field]: e.currentTarget.value } }))
            }
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        {!connectionId && (
          <Text size="xs" c="dimmed">
            {t("connections.sqlMapping.saveFirst")}
          </Text>
        )}
        <Button
          variant="light"
          size="xs"
          onClick={onPreview}
          loading={run.isPending}
          disabled={!connectionId || !q.sql.trim()}
        >
          {t("connections.sqlMapping.preview")}
        </Button>
      </Group>
      {(previewError || preview?.error) && (
        <Alert color="red" variant="light" role="alert">
          {previewError ?? preview?.error}
        </Alert>
      )}
      {preview && !preview.error && <PreviewTable preview={preview} />}
      {connectionId && tab !== "categories" && <FileUploadBox connectionId={connectionId} kind={tab} />}
      <SqlField
        label={t("connections.sqlMapping.orderLookup")}
        description={t("connections.sqlMapping.orderLookupHelp")}
        minRows={2}
        value={form.orderLookup.sql}
        onChange={(sql) => update({ ...form, orderLookup: { ...form.orderLookup, sql } })}
      />
      <SimpleGrid cols={2} spacing="xs">
        {fieldsOf("orderLookup").map(({ field }) => (
          <TextInput
            key={field}
            size="xs"
            label={t(`connections.sqlMapping.fields.${field}`)}
            value={form.orderLookup.columns[field] ?? ""}
            onChange={(e) =>
              update({
                ...form,
                orderLookup: {
                  ...form.orderLookup,
                  columns: { ...form.orderLookup.columns, [field]: e.currentTarget.value },
                },
              })
            }
          />
        ))}
      </SimpleGrid>
      <SqlField
        label={t("connections.sqlMapping.orderWrite")}
        description={t("connections.sqlMapping.orderWriteHelp")}
        minRows={2}
        value={form.orderWrite}
        onChange={(sql) => update({ ...form, orderWrite: sql })}
      />
      {connectionId && <FileExchangeOverviewPanel connectionId={connectionId} />}
    </Stack>
  );
}

function PreviewTable({ preview }: { preview: SqlPreview }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="sql-preview">
      {preview.mappingErrors.map((m) => (
        <Alert key={m} color="yellow" variant="light">
          {m}
        </Alert>
      ))}
      <Text size="xs" c="dimmed">
        {t("connections.sqlMapping.previewRows", { count: preview.rows.length })}
      </Text>
      <ScrollArea>
        <ResponsiveTable striped withTableBorder fz="xs">
          <Table.Thead>
            <Table.Tr>
              {preview.columns.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
              <Table.Th>{t("connections.sqlMapping.result")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, i) => {
              const m = preview.mapped[i];
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no key of their own
                <Table.Tr key={i}>
                  {preview.columns.map((c) => (
                    <Table.Td key={c}>{row[c] === null ? "—" : String(row[c])}</Table.Td>
                  ))}
                  <Table.Td c={m?.ok ? "green" : "red"}>
                    {m?.ok ? t("connections.sqlMapping.accepted") : m?.errors.join(" ")}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </ResponsiveTable>
      </ScrollArea>
    </Stack>
  );
}

/** A monospace SQL text box that grows with its query. */
function SqlField({
  onChange,
  ...props
}: {
  label: string;
  description: string;
  minRows: number;
  value: string;
  onChange: (sql: string) => void;
}) {
  return <Textarea autosize ff="monospace" {...props} onChange={(e) => onChange(e.currentTarget.value)} />;
}
