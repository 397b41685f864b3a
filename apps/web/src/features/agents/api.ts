import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request } from "@/lib/api-client";

export type AgentDto = {
  id: number;
  machineName: string;
  version: string;
  online: boolean;
  lastSeenAt: string | null;
  statusText: string | null;
  roundTripMs: number | null;
  createdAt: string;
};

const agentKeys = { list: ["agents"] as const };

/** GET /api/agents — the company's paired on-site agents (refreshed while the card is open). */
export function useAgents() {
  return useQuery({
    queryKey: agentKeys.list,
    queryFn: ({ signal }) => api.get<AgentDto[]>("/api/agents", { signal }),
    refetchInterval: 15_000,
  });
}

/** POST /api/agents/pairing-code — a one-time code, valid 10 minutes. */
export function useIssuePairingCode() {
  return useMutation({
    mutationFn: () =>
      request<{ code: string; expiresAt: string }>("/api/agents/pairing-code", { method: "POST" }),
  });
}

/** DELETE /api/agents/:id — revokes the agent; its socket is closed and its credential refused. */
export function useRevokeAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<null>(`/api/agents/${id}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.list }),
  });
}
