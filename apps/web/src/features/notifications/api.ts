import type { NotificationDto, PagedList } from "@ep/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

/** Spec sections 7 and 9: first load page 1, size 10. */
export const NOTIFICATION_PAGE_SIZE = 10;
const COUNT_REFRESH_MS = 30_000;

export const notificationKeys = {
  all: ["notifications"] as const,
  count: ["notifications", "count"] as const,
  page: (page: number, size: number) => ["notifications", "list", page, size] as const,
};

export function useNotificationCount() {
  return useQuery({
    queryKey: notificationKeys.count,
    queryFn: ({ signal }) => api.get<number>("/api/Notification/count", { signal }),
    refetchInterval: COUNT_REFRESH_MS,
  });
}

export function useNotifications(page: number, size = NOTIFICATION_PAGE_SIZE, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.page(page, size),
    queryFn: ({ signal }) =>
      api.get<PagedList<NotificationDto>>(`/api/Notification/${page}/${size}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * Marks one notification read. On success the lists show it read and the unread count falls by
 * one, never below 0; a failure changes nothing and shows nothing (spec sections 4 and 8).
 */
export function useMarkAsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ updated: number }>("/api/Notification/mark-as-read", [id]),
    onSuccess: (result, id) => {
      client.setQueriesData<PagedList<NotificationDto>>({ queryKey: ["notifications", "list"] }, (old) =>
        old
          ? { ...old, dataList: old.dataList.map((n) => (n.id === id ? { ...n, is_Read: true } : n)) }
          : old,
      );
      if (result.updated > 0) {
        client.setQueryData<number>(notificationKeys.count, (n) => Math.max(0, (n ?? 0) - 1));
      }
    },
  });
}
