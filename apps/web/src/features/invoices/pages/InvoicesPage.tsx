import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DateField } from "@/components/form/DateField";
import { PageHeader } from "@/components/layout/PageHeader";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { ApiError, requestBlob } from "@/lib/api-client";
import { formatMoney } from "@/lib/format";
import { saveFile } from "@/lib/spreadsheet";
import {
  exportFileName,
  exportRange,
  INVOICE_STATES,
  type InvoiceExportFormat,
  type InvoiceRow,
  type InvoiceRowState,
  type InvoiceSettings,
  type InvoiceState,
  useCancelInvoice,
  useInvoiceSettings,
  useInvoices,
  useRunInvoices,
  useSaveInvoiceSettings,
} from "../api";
import { ExchangeRatesCard } from "../components/ExchangeRatesCard";
import { RouteSummary } from "../components/RouteSummary";
import { RowDialog, type RowDialogProps } from "../components/RowDialog";
import { ShipmentDialog } from "../components/ShipmentDialog";

const STATE_COLOR: Record<InvoiceRowState, string> = {
  delivered: "green",
  prepared: "gray",
  generated: "teal",
  draft: "yellow",
  queued: "blue",
  sent: "blue",
  approved: "green",
  rejected: "red",
  cancelled: "gray",
  error: "red",
};

/** The next step shown under a state that needs one (plain Turkish via the shared catalogue). */
const WHY: Partial<
  Record<InvoiceRowState, "einvoices.why_rejected" | "einvoices.why_error" | "einvoices.why_prepared">
> = {
  rejected: "einvoices.why_rejected",
  error: "einvoices.why_error",
  prepared: "einvoices.why_prepared",
};

/** /integration/order/invoices: Faturalar — e-invoices of shop orders, PDF, e-Arşiv cancel, the job's settings. */
export default function InvoicesPage() {
  const { t } = useTranslation("shared");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [state, setState] = useState<InvoiceState | "">("");
  const invoices = useInvoices({ from: from || undefined, to: to || undefined, state: state || undefined });
  const run = useRunInvoices();
  const [cancelling, setCancelling] = useState<InvoiceRow | null>(null);
  const [shipping, setShipping] = useState<InvoiceRow | null>(null);

  const failed = (e: unknown) =>
    notifications.show({ color: "red", message: e instanceof ApiError && e.message ? e.message : String(e) });

  const [exporting, setExporting] = useState<InvoiceExportFormat | null>(null);
  const download = async (format: InvoiceExportFormat) => {
    // Today in Turkey (UTC+3), the day the server's invoices are dated by.
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const range = exportRange({ from, to }, today);
    setExporting(format);
    try {
      const blob = await requestBlob("/api/invoices/export", { query: { ...range, format } });
      saveFile(blob, exportFileName(range, format));
    } catch (e) {
      failed(e);
    } finally {
      setExporting(null);
    }
  };

  const open = async (row: InvoiceRow, what: "pdf" | "view") => {
    try {
      const blob = await requestBlob(`/api/invoices/${row.id}/${what}`);
      window.open(URL.createObjectURL(blob), "_blank", "noopener");
    } catch (e) {
      failed(e);
    }
  };

  return (
    <>
      <PageHeader title={t("einvoices.title")} />
      <Stack gap="lg">
        <RouteSummary from={from || undefined} to={to || undefined} />
        <SettingsCard />
        <ExchangeRatesCard />
        <Card>
          <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
            <Group align="flex-end" wrap="wrap">
              <DateField
                label={t("einvoices.from")}
                value={from || null}
                onChange={(d) => setFrom(d ?? "")}
                data-testid="invoice-from"
              />
              <DateField
                label={t("einvoices.to")}
                value={to || null}
                onChange={(d) => setTo(d ?? "")}
                data-testid="invoice-to"
              />
              <Select
                label={t("einvoices.status")}
                value={state}
                onChange={(v) => setState((v ?? "") as InvoiceState | "")}
                data={[
                  { value: "", label: t("einvoices.all") },
                  ...INVOICE_STATES.map((s) => ({ value: s, label: t(`einvoices.st_${s}`) })),
                ]}
                data-testid="invoice-state"
              />
            </Group>
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Button
                variant="default"
                loading={exporting === "xlsx"}
                onClick={() => void download("xlsx")}
                data-testid="invoice-export-xlsx"
              >
                {t("einvoices.exportXlsx")}
              </Button>
              <Button
                variant="default"
                loading={exporting === "ubl"}
                onClick={() => void download("ubl")}
                data-testid="invoice-export-ubl"
              >
                {t("einvoices.exportUbl")}
              </Button>
              <Button
                loading={run.isPending}
                onClick={() =>
                  run.mutate(undefined, {
                    onSuccess: (r) => {
                      notifications.show({ color: "green", message: t("einvoices.runDone", r) });
                      // Orders left for a rate: say which currency to enter (never a guessed rate).
                      if (r.waitingRate > 0)
                        notifications.show({
                          color: "orange",
                          message: t("einvoices.waitingRate", {
                            count: r.waitingRate,
                            currencies: r.waitingCurrencies.join(", "),
                          }),
                        });
                    },
                    onError: failed,
                  })
                }
              >
                {t("einvoices.run")}
              </Button>
            </Group>
          </Group>
          <Text size="xs" c="dimmed" mb="sm" data-testid="invoice-export-hint">
            {t("einvoices.exportHint")}
          </Text>
          <QueryBoundary query={invoices} isEmpty={(d) => d.length === 0} emptyMessage={t("einvoices.empty")}>
            {(rows) => (
              <ResponsiveTable minWidth={760} striped verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("einvoices.colNumber")}</Table.Th>
                    <Table.Th>{t("einvoices.colDate")}</Table.Th>
                    <Table.Th>{t("einvoices.colOrder")}</Table.Th>
                    <Table.Th>{t("einvoices.colBuyer")}</Table.Th>
                    <Table.Th ta="right">{t("einvoices.colTotal")}</Table.Th>
                    <Table.Th>{t("einvoices.colType")}</Table.Th>
                    <Table.Th>{t("einvoices.colStatus")}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => {
                    const why = WHY[r.state];
                    return (
                      <Table.Tr key={`${r.source}-${r.id}`} data-testid="invoice-row" data-source={r.source}>
                        <Table.Td>{r.number}</Table.Td>
                        <Table.Td>{r.issueDate}</Table.Td>
                        <Table.Td>
                          {r.orderNo}
                          {r.channel && (
                            <Text size="xs" c="dimmed" data-testid="invoice-channel">
                              {r.channel}
                            </Text>
                          )}
                          {r.trackingNumber && (
                            <Text size="xs" data-testid="invoice-tracking">
                              {t("einvoices.trackingNumber")}: {r.trackingNumber} —{" "}
                              {t(r.trackingSent ? "einvoices.trackingSent" : "einvoices.trackingWaiting")}
                            </Text>
                          )}
                          {r.marketplaceMessage && (
                            <Text size="xs" c="orange" maw={240} data-testid="invoice-marketplace">
                              {r.marketplaceMessage}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{r.buyer}</Table.Td>
                        <Table.Td ta="right">
                          {r.currency === "TRY"
                            ? formatMoney(r.total)
                            : `${formatMoney(r.total)} ${r.currency}`}
                          {r.exchangeRate && (
                            <Text size="xs" c="dimmed" data-testid="invoice-rate">
                              {t("einvoices.colRate")}: {r.exchangeRate.toLocaleString("tr-TR")} (
                              {t(`einvoices.rateFrom_${r.rateSource ?? "merchant"}`)})
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          {r.source === "erp"
                            ? t("einvoices.sourceErp")
                            : r.type === "eArchive"
                              ? t("einvoices.typeEArchive")
                              : t("einvoices.typeEInvoice")}
                          {r.kind === "IADE" && (
                            <>
                              {" "}
                              <Badge color="orange" variant="light" data-testid="invoice-kind-iade">
                                {t("einvoices.kind_IADE")}
                              </Badge>
                              {r.returnOf && (
                                <Text size="xs" c="dimmed">
                                  {t("einvoices.returnOf", { number: r.returnOf })}
                                </Text>
                              )}
                            </>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Badge color={STATE_COLOR[r.state]} variant="light" data-testid="invoice-status">
                            {t(`einvoices.st_${r.state}`)}
                          </Badge>
                          {why && (
                            <Text size="xs" c="dimmed" maw={320} data-testid="invoice-why">
                              {r.message ? `${r.message} — ` : ""}
                              {t(why)}
                            </Text>
                          )}
                          {r.returnRoute && (
                            <Text size="xs" maw={320} data-testid="invoice-return">
                              <b>{t(`einvoices.return_${r.returnRoute}`)}</b>
                              {r.returnWhy ? ` — ${r.returnWhy}` : ""}
                            </Text>
                          )}
                          {r.returnedParts?.map((p) => (
                            <Text
                              key={`${p.lines}-${p.total}`}
                              size="xs"
                              maw={320}
                              data-testid="invoice-returned-part"
                            >
                              <b>
                                {t("einvoices.returnPart", {
                                  lines: p.lines,
                                  amount: p.total === null ? "—" : formatMoney(p.total),
                                })}
                              </b>
                              {p.route ? ` · ${t(`einvoices.return_${p.route}`)}` : ""}
                              {p.why ? ` — ${p.why}` : ""}
                            </Text>
                          ))}
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {r.link && (
                              <>
                                <Button
                                  size="xs"
                                  variant="light"
                                  onClick={() => void open(r, "view")}
                                  data-testid="invoice-view"
                                >
                                  {t("einvoices.view")}
                                </Button>
                                <Button size="xs" variant="light" onClick={() => void open(r, "pdf")}>
                                  {t("einvoices.pdf")}
                                </Button>
                                <Anchor
                                  href={r.link}
                                  target="_blank"
                                  rel="noopener"
                                  size="xs"
                                  data-testid="invoice-link"
                                >
                                  {t("einvoices.customerLink")}
                                </Anchor>
                              </>
                            )}
                            {r.channel && r.source === "service" && r.kind === "SATIS" && !r.trackingSent && (
                              <Button
                                size="xs"
                                variant="subtle"
                                onClick={() => setShipping(r)}
                                data-testid="invoice-shipment"
                              >
                                {t("einvoices.trackingNumber")}
                              </Button>
                            )}
                            {r.cancellable && (
                              <Button size="xs" variant="subtle" color="red" onClick={() => setCancelling(r)}>
                                {t("einvoices.cancel")}
                              </Button>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </ResponsiveTable>
            )}
          </QueryBoundary>
        </Card>
      </Stack>
      <CancelDialog row={cancelling} onClose={() => setCancelling(null)} onError={failed} />
      <ShipmentDialog row={shipping} onClose={() => setShipping(null)} onError={failed} />
    </>
  );
}

function CancelDialog({ row, onClose, onError }: RowDialogProps) {
  const { t } = useTranslation("shared");
  const cancel = useCancelInvoice();
  const [reason, setReason] = useState("");
  return (
    <RowDialog
      row={row}
      title={`${t("einvoices.cancel")}: ${row?.number ?? ""}`}
      onClose={onClose}
      onError={onError}
      send={(r, callbacks) => cancel.mutate({ id: r.id, reason }, callbacks)}
      onSent={() => setReason("")}
      pending={cancel.isPending}
      disabled={reason.trim().length < 3}
      confirm={{ label: t("einvoices.cancel"), testId: "cancel-confirm", color: "red" }}
    >
      <TextInput
        label={t("einvoices.cancelReason")}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        data-testid="cancel-reason"
      />
    </RowDialog>
  );
}

function SettingsCard() {
  const { t } = useTranslation("shared");
  const settings = useInvoiceSettings();
  const save = useSaveInvoiceSettings();
  const [draft, setDraft] = useState<InvoiceSettings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);
  const seriesValid = draft ? /^[A-Z0-9]{3}$/.test(draft.series) : true;
  return (
    <Card>
      <Title order={2} fz="lg" fw={600} mb="sm">
        {t("einvoices.settings")}
      </Title>
      {draft && (
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t("einvoices.series")}
            value={draft.series}
            maxLength={3}
            error={seriesValid ? undefined : t("einvoices.seriesInvalid")}
            onChange={(e) => setDraft({ ...draft, series: e.currentTarget.value.toUpperCase() })}
            data-testid="invoice-series"
          />
          <Select
            label={t("einvoices.invoiceWhen")}
            value={draft.invoiceWhen}
            onChange={(v) => v && setDraft({ ...draft, invoiceWhen: v as InvoiceSettings["invoiceWhen"] })}
            data={[
              { value: "paid", label: t("einvoices.when_paid") },
              { value: "shipped", label: t("einvoices.when_shipped") },
              { value: "all", label: t("einvoices.when_all") },
            ]}
          />
          <Checkbox
            label={t("einvoices.draft")}
            checked={draft.draft}
            onChange={(e) => setDraft({ ...draft, draft: e.currentTarget.checked })}
          />
          <Button
            disabled={!seriesValid}
            loading={save.isPending}
            onClick={() =>
              save.mutate(draft, {
                onSuccess: () => notifications.show({ color: "green", message: t("einvoices.saved") }),
              })
            }
            data-testid="invoice-settings-save"
          >
            {t("einvoices.save")}
          </Button>
        </Group>
      )}
    </Card>
  );
}
