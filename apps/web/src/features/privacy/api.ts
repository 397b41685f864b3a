import type { DeletionRequestInput, DeletionStatus } from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request, requestBlob } from "@/lib/api-client";

export const privacyKeys = { deletion: ["privacy", "deletion"] as const };

type DeletionState = { request: DeletionStatus | null; graceDays: number };

/** GET /api/privacy/deletion — the company's latest deletion request, if any. */
export function useDeletionStatus() {
  return useQuery({
    queryKey: privacyKeys.deletion,
    queryFn: ({ signal }) => api.get<DeletionState>("/api/privacy/deletion", { signal }),
  });
}

function useDeletionWrite<TArg>(call: (arg: TArg) => Promise<{ data: DeletionStatus; message: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: privacyKeys.deletion }),
  });
}

/** POST /api/privacy/deletion — confirmed with the current password. */
export const useRequestDeletion = () =>
  useDeletionWrite((body: DeletionRequestInput) =>
    request<DeletionStatus>("/api/privacy/deletion", { method: "POST", body }),
  );

/** POST /api/privacy/deletion/{id}/cancel. */
export const useCancelDeletion = () =>
  useDeletionWrite((id: number) =>
    request<DeletionStatus>(`/api/privacy/deletion/${id}/cancel`, { method: "POST" }),
  );

/** GET /api/privacy/export, handed to the browser as a download. */
export async function downloadExport(format: "json" | "xlsx"): Promise<void> {
  const blob = await requestBlob(`/api/privacy/export?format=${format}`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `entegrasyon-paneli-verileri-${new Date().toISOString().slice(0, 10)}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
