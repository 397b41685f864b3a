import type {
  Announcement,
  CreateAnnouncementInput,
  PagedList,
  SupportAction,
  SupportCompany,
  SupportDeletion,
  SupportLicenseUpdate,
  SupportTicket,
  SupportTicketDetail,
} from "@ep/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export const SUPPORT_PAGE_SIZE = 20;

export function useSupportInbox(page: number, filter: { status?: number; searchKey?: string }) {
  return useQuery({
    queryKey: ["support", "inbox", page, filter],
    queryFn: ({ signal }) =>
      api.get<PagedList<SupportTicket>>(`/api/support/tickets/${page}/${SUPPORT_PAGE_SIZE}`, {
        signal,
        query: { status: filter.status, searchKey: filter.searchKey || undefined },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function useSupportTicket(id: number) {
  return useQuery({
    queryKey: ["support", "ticket", id],
    queryFn: ({ signal }) => api.get<SupportTicketDetail>(`/api/support/tickets/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

function useTicketAction(id: number, action: (id: number, message?: string) => Promise<SupportTicketDetail>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message?: string) => action(id, message),
    onSuccess: (ticket) => {
      client.setQueryData(["support", "ticket", id], ticket);
      void client.invalidateQueries({ queryKey: ["support"] });
    },
  });
}

export const useSupportReply = (id: number) =>
  useTicketAction(id, (ticketId, message) =>
    api.post<SupportTicketDetail>(`/api/support/tickets/${ticketId}/reply`, { message }),
  );

export const useSupportClose = (id: number) =>
  useTicketAction(id, (ticketId) => api.post<SupportTicketDetail>(`/api/support/tickets/${ticketId}/close`));

export function useSupportCompanies(searchKey: string) {
  return useQuery({
    queryKey: ["support", "companies", searchKey],
    queryFn: ({ signal }) =>
      api.get<SupportCompany[]>("/api/support/companies", {
        signal,
        query: { searchKey: searchKey || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useUpdateLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: SupportLicenseUpdate & { id: number }) =>
      api.put(`/api/support/licenses/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ["support"] }),
  });
}

export function useAnnouncements() {
  return useQuery({
    queryKey: ["support", "announcements"],
    queryFn: ({ signal }) => api.get<Announcement[]>("/api/support/announcements", { signal }),
  });
}

export function useCreateAnnouncement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAnnouncementInput) => api.post<Announcement>("/api/support/announcements", body),
    onSuccess: () => client.invalidateQueries({ queryKey: ["support"] }),
  });
}

export function useSupportActions() {
  return useQuery({
    queryKey: ["support", "actions"],
    queryFn: ({ signal }) => api.get<SupportAction[]>("/api/support/actions", { signal }),
  });
}

/** GET /api/support/deletions — pending KVKK deletions, the soonest first. */
export function useSupportDeletions() {
  return useQuery({
    queryKey: ["support", "deletions"],
    queryFn: ({ signal }) => api.get<SupportDeletion[]>("/api/support/deletions", { signal }),
  });
}
