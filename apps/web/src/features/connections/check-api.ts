import type { ConnectionCheckOverview, ConnectionType } from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request } from "@/lib/api-client";

const checkKey = ["connections", "check"] as const;

/** GET /api/settings/connection-check — both sides' last check and whether the first sync waits. */
export function useConnectionCheck() {
  return useQuery({
    queryKey: checkKey,
    queryFn: ({ signal }) => api.get<ConnectionCheckOverview>("/api/settings/connection-check", { signal }),
  });
}

/** POST /api/settings/connection-check — "Bağlantıyı doğrula" (one side, or both). */
export function useRunConnectionCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (connectionType?: ConnectionType) =>
      request<ConnectionCheckOverview>("/api/settings/connection-check", {
        method: "POST",
        body: connectionType ? { connectionType } : {},
      }),
    onSuccess: (res) => client.setQueryData(checkKey, res.data),
  });
}

/** POST /api/settings/connection-check/proceed — "Yine de devam et": the first sync starts despite a difference. */
export function useProceedFirstSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      request<ConnectionCheckOverview>("/api/settings/connection-check/proceed", { method: "POST" }),
    onSuccess: (res) => client.setQueryData(checkKey, res.data),
  });
}
