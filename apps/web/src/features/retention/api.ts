import type { RetentionSettings, RetentionState } from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request } from "@/lib/api-client";

export const retentionKeys = { state: ["retention"] as const };

/** GET /api/retention — the company's periods, the defaults and the last clean-up. */
export function useRetention() {
  return useQuery({
    queryKey: retentionKeys.state,
    queryFn: ({ signal }) => api.get<RetentionState>("/api/retention", { signal }),
  });
}

/** PUT /api/retention — every period at once. */
export function useSaveRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionSettings) =>
      request<RetentionState>("/api/retention", { method: "PUT", body }),
    onSuccess: (result) => client.setQueryData(retentionKeys.state, result.data),
  });
}
