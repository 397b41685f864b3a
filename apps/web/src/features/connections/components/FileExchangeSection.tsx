import type { FileImportItem, FileImportResult } from "@ep/contracts";
import { Alert, Badge, Button, FileInput, Group, Loader, Stack, Table, Text, Title } from "@mantine/core";
import { IconDownload, IconFolder, IconTrash } from "@tabler/icons-react";
import { type ComponentProps, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/components/feedback/ConfirmDialog";
import { DataTable } from "@/components/table/DataTable";
import { ServerPagination, usePager } from "@/components/table/ServerPagination";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import {
  useDeletedFileIds,
  useFileExchange,
  useFileImport,
  useFileImportDelete,
  useFileRows,
  useOrdersFileDownload,
} from "../api";

const ROWS_PAGE = 20;
type Kind = "products" | "stock" | "prices" | "orders";

/** Texts of an upload box that is not a mapping tab's (a file shop's orders file). */
type UploadTexts = { title: string; help: string; used: string };

/**
 * Files in for the open tab's kind: an Excel/CSV/XML file is checked row by row and kept; the latest
 * accepted file of a kind is what the next sync reads (instead of the query). A file shop's orders
 * file goes through the same box with its own texts.
 */
export function FileUploadBox({
  connectionId,
  kind,
  texts,
}: {
  connectionId: number;
  kind: Kind;
  texts?: UploadTexts;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const upload = useFileImport();
  const [error, setError] = useState<string | null>(null);
  const deleted = useDeletedFileIds(connectionId);
  const onUpload = async () => {
    if (!file) return;
    setError(null);
    try {
      await upload.mutateAsync({ connectionId, kind, file });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const result = upload.data;
  return (
    <Stack gap="xs" data-testid="file-import">
      <Text size="sm" fw={500}>
        {texts?.title ?? t("connections.sqlMapping.files")}
      </Text>
      <Text size="xs" c="dimmed">
        {texts?.help ?? t("connections.files.uploadHelp")}
      </Text>
      <Group align="flex-end">
        <FileInput
          size="xs"
          accept=".xlsx,.csv,.xml"
          value={file}
          onChange={setFile}
          placeholder={t("connections.sqlMapping.chooseFile")}
          aria-label={t("connections.sqlMapping.chooseFile")}
          style={{ flex: 1 }}
        />
        <Button size="xs" variant="light" onClick={onUpload} loading={upload.isPending} disabled={!file}>
          {t("connections.sqlMapping.check")}
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {result &&
        (deleted.includes(result.importId) ? (
          <Text size="xs" c="dimmed" data-testid="file-import-result">
            {t("connections.files.resultDeleted")}
          </Text>
        ) : (
          <UploadResult connectionId={connectionId} result={result} used={texts?.used} />
        ))}
    </Stack>
  );
}

function UploadResult({
  connectionId,
  result,
  used,
}: {
  connectionId: number;
  result: FileImportResult;
  used?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="file-import-result">
      <Text size="sm">
        {t("connections.sqlMapping.fileResult", { accepted: result.accepted, rejected: result.rejected })}
      </Text>
      {result.status === "duplicate" && (
        <Text size="xs" c="dimmed">
          {t("connections.files.duplicate")}
        </Text>
      )}
      <Text size="xs" c={result.usedForSync ? "teal" : "orange"}>
        {result.usedForSync ? (used ?? t("connections.files.usedForSync")) : t("connections.files.notUsed")}
      </Text>
      <RowResults connectionId={connectionId} fileId={result.importId} />
    </Stack>
  );
}

/** A kept file's per-row results, paged from the server. */
function RowResults({ connectionId, fileId }: { connectionId: number; fileId: number }) {
  const { t } = useTranslation();
  const pager = usePager(ROWS_PAGE);
  const rows = useFileRows(connectionId, fileId, pager.page, ROWS_PAGE);
  if (rows.isPending) return <Loader size="xs" aria-label={t("connections.files.loading")} />;
  if (rows.isError)
    return (
      <Alert color="red" variant="light">
        {errorMessage(rows.error)}
      </Alert>
    );
  return (
    <Stack gap={4}>
      <DataTable
        striped
        withTableBorder
        fz="xs"
        data-testid="file-rows"
        columns={[t("connections.files.row"), t("connections.files.key"), t("connections.files.result")]}
      >
        {rows.data.rows.map((r) => (
          <Table.Tr key={r.row}>
            <Table.Td>{r.row}</Table.Td>
            <Table.Td>{r.key}</Table.Td>
            <Table.Td c={r.accepted ? "green" : "red"}>
              {r.accepted ? t("connections.sqlMapping.accepted") : r.reasons.join(" ")}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ServerPagination pager={pager} totalCount={rows.data.total} />
    </Stack>
  );
}

/**
 * The company's files: recent imports (panel or the agent's watched folder), the watched folders as
 * the agent reports them, and the orders files the sync wrote, to download.
 */
/** A titled list of the overview: its empty text, or a table with one row per item. */
function TitledTable<T>({
  title,
  empty,
  items,
  children,
  ...table
}: Omit<ComponentProps<typeof DataTable>, "children"> & {
  title: string;
  empty: string;
  items: readonly T[];
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {items.length === 0 ? (
        <Text size="xs" c="dimmed">
          {empty}
        </Text>
      ) : (
        <DataTable {...table}>{items.map(children)}</DataTable>
      )}
    </>
  );
}

export function FileExchangeOverviewPanel({ connectionId }: { connectionId: number }) {
  const { t } = useTranslation();
  const overview = useFileExchange(connectionId);
  const download = useOrdersFileDownload(connectionId);
  const [open, setOpen] = useState<number | null>(null);
  const remove = useFileImportDelete(connectionId);
  const [toDelete, setToDelete] = useState<FileImportItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const closeDelete = () => {
    setToDelete(null);
    setDeleteError(null);
  };
  const onDelete = async () => {
    if (!toDelete) return;
    setDeleteError(null);
    try {
      const gone = await remove.mutateAsync(toDelete.id);
      if (open === gone.id) setOpen(null);
      setNotice(
        `${t("connections.files.deleted", { file: toDelete.fileName })} ${
          gone.nextFile
            ? t("connections.files.nextFile", { file: gone.nextFile.fileName })
            : t("connections.files.nextQuery")
        }`,
      );
      setToDelete(null);
    } catch (e) {
      setDeleteError(errorMessage(e));
    }
  };
  const kindText = (k: FileImportItem["kind"]) => t(`connections.files.kinds.${k}`);
  return (
    <Stack gap="sm" data-testid="file-exchange">
      <Group gap="xs">
        <IconFolder size={18} aria-hidden />
        <Title order={3} fz="md" fw={600}>
          {t("connections.files.title")}
        </Title>
      </Group>
      <Text size="sm" c="dimmed">
        {t("connections.files.honest")}
      </Text>
      {notice && (
        <Alert
          color="teal"
          variant="light"
          withCloseButton
          closeButtonLabel={t("common.close")}
          onClose={() => setNotice(null)}
          data-testid="file-delete-notice"
        >
          {notice}
        </Alert>
      )}
      {overview.isPending && <Loader size="sm" aria-label={t("connections.files.loading")} />}
      {overview.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(overview.error)}
        </Alert>
      )}
      {overview.data && (
        <>
          <TitledTable
            title={t("connections.files.recent")}
            empty={t("connections.files.noImports")}
            items={overview.data.imports}
            striped
            withTableBorder
            fz="xs"
            data-testid="file-imports"
            columns={[
              t("connections.files.kind"),
              t("connections.files.file"),
              t("connections.files.source"),
              t("connections.files.at"),
              t("connections.files.counts"),
              "",
            ]}
          >
            {(f) => (
              <Table.Tr key={f.id}>
                <Table.Td>{kindText(f.kind)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {f.fileName}
                    {f.usedForSync && (
                      <Badge size="xs" color="teal" variant="light">
                        {t("connections.files.inUse")}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{t(`connections.files.sources.${f.source}`)}</Table.Td>
                <Table.Td>{formatDateTime(f.uploadedAt)}</Table.Td>
                <Table.Td>
                  {t("connections.files.acceptedRejected", {
                    accepted: f.rowsAccepted,
                    rejected: f.rowsRejected,
                  })}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => setOpen(open === f.id ? null : f.id)}
                    >
                      {t("connections.files.showRows")}
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      aria-label={t("connections.files.deleteAria", { file: f.fileName })}
                      onClick={() => {
                        setNotice(null);
                        setToDelete(f);
                      }}
                    >
                      {t("connections.files.delete")}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )}
          </TitledTable>
          {open !== null && <RowResults connectionId={connectionId} fileId={open} />}
          <ConfirmDialog
            opened={toDelete !== null}
            onClose={closeDelete}
            title={t("connections.files.deleteTitle")}
            message={
              toDelete &&
              [
                t("connections.files.deleteText", { file: toDelete.fileName }),
                toDelete.usedForSync ? t("connections.files.deleteInUse") : "",
              ]
                .filter(Boolean)
                .join(" ")
            }
            cancelLabel={t("connections.files.cancel")}
            confirmLabel={t("connections.files.delete")}
            loading={remove.isPending}
            error={deleteError}
            onConfirm={onDelete}
            confirmTestId="file-delete-confirm"
          />

          <TitledTable
            title={t("connections.files.folders")}
            empty={t("connections.files.noFolders")}
            items={overview.data.folders}
            withTableBorder
            fz="xs"
            data-testid="watched-folders"
          >
            {(f) => (
              <Table.Tr key={`${f.agentId}:${f.path}`}>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {f.path}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {f.machineName} · {kindText(f.kind)}
                    {f.outbox ? ` · ${t("connections.files.outbox", { path: f.outbox })}` : ""}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge size="xs" color={f.online && f.readable ? "teal" : "red"} variant="light">
                    {!f.online
                      ? t("connections.files.agentOffline")
                      : f.readable
                        ? t("connections.files.watching")
                        : t("connections.files.unreadable")}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {f.lastFile
                    ? t("connections.files.lastFile", {
                        file: f.lastFile,
                        at: f.lastAt ? formatDateTime(f.lastAt) : "",
                      })
                    : t("connections.files.noFileYet")}
                </Table.Td>
              </Table.Tr>
            )}
          </TitledTable>

          <TitledTable
            title={t("connections.files.ordersFiles")}
            empty={t("connections.files.noOrders")}
            items={overview.data.orders}
            withTableBorder
            fz="xs"
            data-testid="orders-files"
          >
            {(f) => (
              <Table.Tr key={f.id}>
                <Table.Td>{f.fileName}</Table.Td>
                <Table.Td>{formatDateTime(f.uploadedAt)}</Table.Td>
                <Table.Td>{t("connections.files.orderCount", { count: f.rowsAccepted })}</Table.Td>
                <Table.Td>
                  {f.deliveredAt
                    ? t("connections.files.delivered", { at: formatDateTime(f.deliveredAt) })
                    : t("connections.files.notDelivered")}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    leftSection={<IconDownload size={14} aria-hidden />}
                    loading={download.isPending && download.variables === f.id}
                    onClick={() => download.mutate(f.id)}
                  >
                    {t("connections.files.download")}
                  </Button>
                </Table.Td>
              </Table.Tr>
            )}
          </TitledTable>
        </>
      )}
    </Stack>
  );
}
