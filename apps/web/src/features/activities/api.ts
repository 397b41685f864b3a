import type { ActivityDto } from "@ep/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

/** Spec section 9: the drawer loads page 1, size 30. */
export const ACTIVITY_PAGE_SIZE = 30;

export function useActivities(
  page: number,
  size = ACTIVITY_PAGE_SIZE,
  range: { startDate?: string; endDate?: string } = {},
  enabled = true,
) {
  return useQuery({
    queryKey: ["activities", page, size, range.startDate ?? null, range.endDate ?? null],
    queryFn: ({ signal }) =>
      api.get<ActivityDto[]>(`/api/Activity/${page}/${size}`, { signal, query: range }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
