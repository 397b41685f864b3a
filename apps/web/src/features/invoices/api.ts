import type {
  EInvoiceState,
  ExchangeRate,
  ExchangeRateInput,
  ExchangeRatesView,
  InvoiceRoute,
  InvoiceSource,
} from "@ep/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export { EINVOICE_STATES as INVOICE_STATES } from "@ep/contracts";
export type InvoiceState = EInvoiceState;

/** A row's state: the GİB state of an invoice issued through the service, or `delivered` for an ERP's invoice. */
export type InvoiceRowState = InvoiceState | "delivered";

export type InvoiceRow = {
  /** Issued through the e-invoice service (actions apply), or the ERP's invoice delivered to the shop. */
  source: InvoiceSource;
  id: number;
  number: string;
  ettn: string;
  orderNo: string;
  /** The marketplace channel the order came from (Trendyol, Hepsiburada…); null: the shop. */
  channel?: string | null;
  buyer: string;
  total: number;
  currency: string;
  type: "eArchive" | "eInvoice" | null;
  /** SATIS, or IADE for the return of a cancelled / returned order's invoice. */
  kind: "SATIS" | "IADE";
  /** The number of the invoice an IADE returns. */
  returnOf: string | null;
  state: InvoiceRowState;
  message: string | null;
  issueDate: string;
  issueTime?: string | null;
  exchangeRate?: number | null;
  rateSource?: "order" | "merchant" | null;
  /** A returned sale's route (cancelled, the buyer's IADE, or a gider pusulası) and why (Turkish). */
  returnRoute?: "cancel" | "iade" | "none" | null;
  returnWhy?: string | null;
  /** Parts of the sale that came back (a partial return each), with their document's amount and route. */
  returnedParts?: {
    lines: string;
    total: number | null;
    route: "cancel" | "iade" | "none" | null;
    why: string | null;
  }[];
  attached: boolean;
  /** The marketplace's words about the link or tracking number it refused or has not taken yet. */
  marketplaceMessage?: string | null;
  trackingNumber?: string | null;
  trackingSent?: boolean;
  cancellable: boolean;
  /** The customer's link (the one the shop order carries): the invoice as a page and its PDF. */
  link?: string | null;
};

export type InvoiceSummary = { total: number; service: number; erp: number; route: InvoiceRoute };

export type InvoiceSettings = {
  series: string;
  draft: boolean;
  invoiceWhen: "paid" | "shipped" | "all";
  eInvoiceProfile: "TEMELFATURA" | "TICARIFATURA";
};

export type InvoiceFilter = { from?: string; to?: string; state?: InvoiceState };

export function useInvoices(filter: InvoiceFilter) {
  return useQuery({
    queryKey: ["invoices", filter.from ?? null, filter.to ?? null, filter.state ?? null],
    queryFn: ({ signal }) => api.get<InvoiceRow[]>("/api/invoices", { signal, query: filter }),
    placeholderData: keepPreviousData,
  });
}

/** How many invoices the range holds (the Reports page counts the same ones) and who issues them. */
export function useInvoiceSummary(filter: { from?: string; to?: string }) {
  return useQuery({
    queryKey: ["invoices", "summary", filter.from ?? null, filter.to ?? null],
    queryFn: ({ signal }) => api.get<InvoiceSummary>("/api/invoices/summary", { signal, query: filter }),
    placeholderData: keepPreviousData,
  });
}

export function useExchangeRates() {
  return useQuery({
    queryKey: ["invoices", "exchange-rates"],
    queryFn: ({ signal }) => api.get<ExchangeRatesView>("/api/invoices/exchange-rates", { signal }),
  });
}

export function useSaveExchangeRate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rate: ExchangeRateInput) => api.put<ExchangeRate[]>("/api/invoices/exchange-rates", rate),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices", "exchange-rates"] }),
  });
}

export function useDeleteExchangeRate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rate: { currency: string; date: string }) =>
      api.delete<ExchangeRate[]>(`/api/invoices/exchange-rates/${rate.currency}/${rate.date}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices", "exchange-rates"] }),
  });
}

export function useInvoiceSettings() {
  return useQuery({
    queryKey: ["invoice-settings"],
    queryFn: ({ signal }) => api.get<InvoiceSettings>("/api/invoices/settings", { signal }),
  });
}

export function useSaveInvoiceSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (s: InvoiceSettings) => api.put<InvoiceSettings>("/api/invoices/settings", s),
    onSuccess: (s) => client.setQueryData(["invoice-settings"], s),
  });
}

export function useCancelInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; reason: string }) =>
      api.post<{ id: number }>(`/api/invoices/${v.id}/cancel`, { reason: v.reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices"] }),
  });
}

/** The shipment of a marketplace order: its tracking number goes back to the marketplace once. */
export function useSaveShipment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; trackingNumber: string; carrier?: string }) =>
      api.put<{ id: number }>(`/api/invoices/${v.id}/shipment`, {
        trackingNumber: v.trackingNumber,
        ...(v.carrier ? { carrier: v.carrier } : {}),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices"] }),
  });
}

export function useRunInvoices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<{ prepared: number; sent: number; waitingRate: number; waitingCurrencies: string[] }>(
        "/api/invoices/run",
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices"] }),
  });
}

export type InvoiceExportFormat = "xlsx" | "ubl";

/**
 * The export of a day or a date range (for LucaPortal and other portals without an API): the range the
 * screen's filter shows, or today when no date is chosen; a lone end date is its own day.
 */
export function exportRange(
  filter: { from?: string; to?: string },
  today: string,
): { from: string; to: string } {
  const from = filter.from || filter.to || today;
  const to = filter.to || from;
  return { from, to };
}

export function exportFileName(range: { from: string; to: string }, format: InvoiceExportFormat): string {
  const base = range.from === range.to ? `faturalar-${range.from}` : `faturalar-${range.from}_${range.to}`;
  return `${base}.${format === "ubl" ? "zip" : "xlsx"}`;
}
