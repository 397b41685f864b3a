import type { AgentView } from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request, requestBlob } from "@/lib/api-client";
import { saveFile } from "@/lib/spreadsheet";

export type AgentReleaseDto = {
  version: string;
  builtAt: string;
  files: { platform: "windows" | "linux"; fileName: string; size: number; sha256: string }[];
};

const agentKeys = { list: ["agents"] as const, downloads: ["agents", "downloads"] as const };

/** GET /api/agents/downloads — the built executables (version, size, SHA-256), or null with the reason. */
export function useAgentDownloads() {
  return useQuery({
    queryKey: agentKeys.downloads,
    queryFn: ({ signal }) => request<AgentReleaseDto | null>("/api/agents/downloads", { signal }),
  });
}

/** GET /api/agents/download/:platform — the executable, handed to the browser's save dialog. */
export function useDownloadAgent() {
  return useMutation({
    mutationFn: async (file: AgentReleaseDto["files"][number]) => {
      const blob = await requestBlob(`/api/agents/download/${file.platform}`);
      saveFile(blob, blob.fileName ?? file.fileName);
    },
  });
}

/** GET /api/agents — the company's paired on-site agents (refreshed while the card is open). */
export function useAgents() {
  return useQuery({
    queryKey: agentKeys.list,
    queryFn: ({ signal }) => api.get<AgentView[]>("/api/agents", { signal }),
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

/** PUT /api/agents/:id/serves — one more agent (another machine) for a connection, or one fewer. */
export function useServeConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, kind, serves }: { id: number; kind: "erp" | "shop"; serves: boolean }) =>
      request<null>(`/api/agents/${id}/serves`, { method: "PUT", body: { kind, serves } }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.list }),
  });
}

/** PUT /api/agents/:id/update-window — the hours the agent may update itself in. */
export function useSetUpdateWindow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, from, to }: { id: number; from: number; to: number }) =>
      request<null>(`/api/agents/${id}/update-window`, { method: "PUT", body: { from, to } }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.list }),
  });
}
