import { Alert, Anchor, Button, Group, List, Stack, Table, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { DataTable } from "@/components/table/DataTable";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useFileExchange, useStockFileDownload } from "../api";
import { FileUploadBox } from "./FileExchangeSection";

/**
 * A shop with no API (JetStok), connected through the files it exports and imports: what the merchant
 * does each time, then (once saved) the stock and price file to download and the orders file to upload.
 */
export function FileShopSection({ connectionId, panelUrl }: { connectionId?: number; panelUrl?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert
        color="teal"
        variant="light"
        data-testid="file-shop-note"
        title={t("connectors.jetstok.card.cardTitle", { ns: "shared" })}
      >
        <Stack gap={6}>
          <Text size="sm">{t("connectors.jetstok.card.cardBody", { ns: "shared" })}</Text>
          <List size="sm" type="ordered">
            <List.Item>{t("connectors.jetstok.card.stepStock", { ns: "shared" })}</List.Item>
            <List.Item>{t("connectors.jetstok.card.stepOrders", { ns: "shared" })}</List.Item>
          </List>
          {panelUrl && (
            <Anchor href={panelUrl} target="_blank" rel="noreferrer" size="sm">
              {panelUrl}
            </Anchor>
          )}
        </Stack>
      </Alert>
      {connectionId !== undefined && <FileShopFiles connectionId={connectionId} />}
    </Stack>
  );
}

function FileShopFiles({ connectionId }: { connectionId: number }) {
  const { t } = useTranslation();
  const overview = useFileExchange(connectionId);
  const download = useStockFileDownload(connectionId);
  const stockFile = overview.data?.stockFile ?? null;
  const uploaded = overview.data?.imports ?? [];
  return (
    <Stack gap="sm" data-testid="file-shop-files">
      <Group gap="sm">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} aria-hidden />}
          onClick={() => download.mutate()}
          loading={download.isPending}
          disabled={!stockFile}
        >
          {t("connectors.jetstok.card.stockFile", { ns: "shared" })}
        </Button>
        <Text size="xs" c="dimmed" data-testid="stock-file-state">
          {stockFile
            ? t("connectors.jetstok.card.stockFileAt", {
                ns: "shared",
                at: formatDateTime(stockFile.updatedAt),
                count: stockFile.rows,
              })
            : t("connectors.jetstok.card.noStockFile", { ns: "shared" })}
        </Text>
      </Group>
      {download.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(download.error)}
        </Alert>
      )}
      <FileUploadBox
        connectionId={connectionId}
        kind="orders"
        texts={{
          title: t("connectors.jetstok.card.ordersUpload", { ns: "shared" }),
          help: t("connectors.jetstok.card.ordersHelp", { ns: "shared" }),
          used: t("connectors.jetstok.card.ordersUsed", { ns: "shared" }),
        }}
      />
      {uploaded.length > 0 && (
        <>
          <Text size="sm" fw={500}>
            {t("connectors.jetstok.card.ordersFiles", { ns: "shared" })}
          </Text>
          <DataTable
            striped
            withTableBorder
            fz="xs"
            columns={[t("connections.files.file"), t("connections.files.at"), t("connections.files.counts")]}
          >
            {uploaded.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>{f.fileName}</Table.Td>
                <Table.Td>{formatDateTime(f.uploadedAt)}</Table.Td>
                <Table.Td>
                  {t("connections.sqlMapping.fileResult", {
                    accepted: f.rowsAccepted,
                    rejected: f.rowsRejected,
                  })}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        </>
      )}
    </Stack>
  );
}
