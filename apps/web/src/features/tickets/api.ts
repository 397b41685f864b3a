import type { PagedList, Ticket, TicketCategory } from "@ep/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, requestBlob } from "@/lib/api-client";

/** Spec section 9: the drawer shows page 1, size 20, newest first. */
export const TICKET_PAGE_SIZE = 20;
/** Spec section 9: menu counts and the header dot use status 2 (answered). */
export const ANSWERED_STATUS = 2;

export type TicketFilter = { searchKey?: string; status?: number; orderBy?: "asc" | "desc" };

export const ticketKeys = {
  all: ["tickets"] as const,
  list: (page: number, size: number, filter: TicketFilter) =>
    ["tickets", "list", page, size, filter] as const,
  one: (id: number) => ["tickets", "one", id] as const,
  count: (status: number) => ["tickets", "count", status] as const,
  categories: (parentId: number | null) => ["ticket-categories", parentId] as const,
};

export function useTickets(page: number, size: number, filter: TicketFilter, enabled = true) {
  return useQuery({
    queryKey: ticketKeys.list(page, size, filter),
    queryFn: ({ signal }) =>
      api.get<PagedList<Ticket>>(`/api/Ticket/my-company/${page}/${size}`, {
        signal,
        query: {
          orderBy: filter.orderBy ?? "desc",
          searchKey: filter.searchKey || undefined,
          status: filter.status,
        },
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTicket(id: number) {
  return useQuery({
    queryKey: ticketKeys.one(id),
    queryFn: ({ signal }) => api.get<Ticket>(`/api/Ticket/my-company/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** GET /api/Ticket/count-by-status/2: the side-menu count and the header dot. */
export function useTicketCount(status = ANSWERED_STATUS) {
  return useQuery({
    queryKey: ticketKeys.count(status),
    queryFn: ({ signal }) => api.get<number>(`/api/Ticket/count-by-status/${status}`, { signal }),
    refetchInterval: 60_000,
  });
}

export function useTicketCategories(parentId: number | null, enabled = true) {
  return useQuery({
    queryKey: ticketKeys.categories(parentId),
    queryFn: ({ signal }) =>
      api.get<TicketCategory[]>("/api/Ticket/categories", {
        signal,
        query: { parentid: parentId ?? undefined },
      }),
    staleTime: 10 * 60_000,
    enabled,
  });
}

function toForm(fields: Record<string, string | number | undefined>, files: File[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
  for (const file of files) form.append("files", file, file.name);
  return form;
}

export type CreateTicketValues = {
  categoryId: number;
  subject: string;
  message: string;
  jobRunId?: number;
  jobErrorReportId?: number;
  files: File[];
};

export function useCreateTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ files, ...fields }: CreateTicketValues) =>
      api.post<Ticket>("/api/Ticket/my-company", toForm(fields, files)),
    onSuccess: () => client.invalidateQueries({ queryKey: ticketKeys.all }),
  });
}

export function useReplyTicket(ticketId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ message, files }: { message: string; files: File[] }) =>
      api.post<Ticket>("/api/Ticket/my-company/ticket_reply", toForm({ ticketId, message }, files)),
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.one(ticketId), ticket);
      void client.invalidateQueries({ queryKey: ticketKeys.all });
    },
  });
}

export function useCloseTicket(ticketId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<Ticket>("/api/Ticket/my-company/update-state", undefined, {
        query: { ticketid: ticketId, status: 3 },
      }),
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.one(ticketId), ticket);
      void client.invalidateQueries({ queryKey: ticketKeys.all });
    },
  });
}

/** Fetches an attachment with the session's token and hands it to the browser as a download. */
export async function downloadAttachment(path: string, fileName: string): Promise<void> {
  const blob = await requestBlob(path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
