import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export const INVOICE_STATES = [
  "prepared",
  "draft",
  "queued",
  "sent",
  "approved",
  "rejected",
  "cancelled",
  "error",
] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

export type InvoiceRow = {
  id: number;
  number: string;
  ettn: string;
  orderNo: string;
  buyer: string;
  total: number;
  currency: string;
  type: "eArchive" | "eInvoice";
  state: InvoiceState;
  message: string | null;
  issueDate: string;
  attached: boolean;
  cancellable: boolean;
};

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

export function useRunInvoices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ prepared: number; sent: number }>("/api/invoices/run"),
    onSuccess: () => client.invalidateQueries({ queryKey: ["invoices"] }),
  });
}
