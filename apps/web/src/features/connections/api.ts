import type {
  ConnectionSaveResult,
  ConnectionsOverview,
  ConnectionTest,
  ConnectionType,
  ConnectionUsage,
  CreateErpMatchingRequest,
  ErpMatchingDto,
  ErpMatchingImportResult,
  FileExchangeOverview,
  FileImportDeleted,
  FileImportResult,
  JobDto,
  JobScheduleDto,
  OptionDto,
  RunPreview,
  SandboxConnectResult,
  SandboxSystemInfo,
  SettingDto,
  SettingKey,
  SettingsLayout,
  SettingType,
  SqlPreview,
  SqlQueryName,
  WebhookStatus,
} from "@ep/contracts";

/** A mapping ERP's products / stock / prices files, or a file shop's (JetStok's) orders file. */
type FileImportKind = "products" | "stock" | "prices" | "orders";

import { useMutation, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request, requestBlob } from "@/lib/api-client";
import { saveFile } from "@/lib/spreadsheet";

export const connectionKeys = {
  overview: ["connections"] as const,
  layout: ["settings", "layout"] as const,
  settings: (type: SettingType) => ["settings", "type", type] as const,
  list: (path: string) => ["settings", "list", path] as const,
  jobs: ["settings", "jobs"] as const,
};

/** GET /api/settings/connections — both sides, secrets only as "set", with each system's form. */
export function useConnections() {
  return useQuery({
    queryKey: connectionKeys.overview,
    queryFn: ({ signal }) => api.get<ConnectionsOverview>("/api/settings/connections", { signal }),
  });
}

type ConnectionCall = {
  connectionType: ConnectionType;
  productType: number;
  fields: Record<string, string>;
  /** The on-site agent to go through (null: directly); left out keeps the stored choice. */
  agentId?: number | null;
};

/** POST /api/settings/connection-setting-update/{connectionType}/{productType}. */
export function useSaveConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionType, productType, fields, agentId }: ConnectionCall) =>
      request<ConnectionSaveResult>(
        `/api/settings/connection-setting-update/${connectionType}/${productType}`,
        { method: "POST", body: { fields, agentId } },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["connections"] }),
  });
}

/** GET /api/sandbox — the built-in sandbox systems and the company's own logins to them. */
export function useSandboxSystems(enabled = true) {
  return useQuery({
    queryKey: ["sandbox"],
    queryFn: ({ signal }) => api.get<SandboxSystemInfo[]>("/api/sandbox", { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * POST /api/sandbox/connect — "Deneme sistemlerine bağlan": ERP and shop sandboxes in one call, and the
 * marketplace sandboxes ticked (their system keys) as sales channels beside the shop.
 */
export function useConnectSandbox() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channels: string[] = []) =>
      request<SandboxConnectResult>("/api/sandbox/connect", {
        method: "POST",
        body: channels.length > 0 ? { channels } : undefined,
      }),
    // Connections, the jobs they create and the dashboard's cards all change.
    onSuccess: () => client.invalidateQueries(),
  });
}

/** POST /api/APIConnection/{erp|ecommerce}/{x} — the connector's real test, answered in Turkish. */
export function useTestConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionType, productType, fields, agentId }: ConnectionCall) =>
      api.post<ConnectionTest>(`/api/APIConnection/${connectionType}/${productType}`, { fields, agentId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["connections"] }),
  });
}

export function useSettingsLayout() {
  return useQuery({
    queryKey: connectionKeys.layout,
    queryFn: ({ signal }) => api.get<SettingsLayout>("/api/settings/settings-layout", { signal }),
  });
}

/** GET /api/settings/{type}: the settings of one job type (engine defaults when never saved). */
export function useSettings(type: SettingType) {
  return useQuery({
    queryKey: connectionKeys.settings(type),
    queryFn: ({ signal }) => api.get<SettingDto[]>(`/api/settings/${type}`, { signal }),
  });
}

/** POST /api/settings — validated per key on the server; takes effect on the next run. */
export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: Array<{ key: SettingKey; value: unknown }>) =>
      request<SettingDto[]>("/api/settings", { method: "POST", body: { settings } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["settings", "type"] }),
  });
}

/** A list read from the connected system (order statuses, payment types, price groups, depots). */
export function useLiveList(path: string, enabled = true) {
  return useQuery({
    queryKey: connectionKeys.list(path),
    queryFn: ({ signal }) => api.get<OptionDto[]>(`/api/settings/${path}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useCompanyJobs() {
  return useQuery({
    queryKey: connectionKeys.jobs,
    queryFn: ({ signal }) =>
      api.get<JobDto[]>(
        "/api/Job/type-filter/ProductIntegration,PriceIntegration,StockIntegration,ProductUpdate,CategoryIntegration,OrderIntegration,InvoiceIntegration",
        { signal },
      ),
  });
}

/** PUT /api/job — enabled and schedule of one job. */
export function useUpdateJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; is_enabled?: boolean; schedule?: JobScheduleDto }) =>
      request<JobDto>("/api/job", { method: "PUT", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: connectionKeys.jobs }),
  });
}

export const matchingKeys = { list: (search: string) => ["erp-matching", search] as const };

/** GET /api/ErpMatching?search — the manual links, newest first. */
export function useErpMatchings(search: string) {
  return useQuery({
    queryKey: matchingKeys.list(search),
    queryFn: ({ signal }) =>
      api.get<ErpMatchingDto[]>("/api/ErpMatching", { signal, query: { search: search || undefined } }),
  });
}

function useMatchingWrite<TIn, TOut>(call: (input: TIn) => Promise<TOut>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: ["erp-matching"] }),
  });
}

export const useCreateErpMatching = () =>
  useMatchingWrite((body: CreateErpMatchingRequest) =>
    request<ErpMatchingDto>("/api/ErpMatching", { method: "POST", body }),
  );
export const useDeleteErpMatching = () =>
  useMatchingWrite((id: number) => request<null>(`/api/ErpMatching/${id}`, { method: "DELETE" }));
export const useImportErpMatchings = () =>
  useMatchingWrite((csv: string) => api.post<ErpMatchingImportResult>("/api/ErpMatching/import", { csv }));

/** POST /api/settings/preview/{job}: what the next price or stock run would write, nothing written. */
export const usePreviewRun = () =>
  useMutation({
    mutationFn: (jobType: RunPreview["jobType"]) => api.post<RunPreview>(`/api/settings/preview/${jobType}`),
  });

/** POST /api/Job/run-job?jobId. */
export const useRunJob = () =>
  useMutation({
    mutationFn: (jobId: number) =>
      request<{ runId: number }>("/api/Job/run-job", { method: "POST", query: { jobId } }),
  });

/** GET /api/settings/connection-usage — this month's billable calls of the metered connections. */
export function useConnectionUsage() {
  return useQuery({
    queryKey: ["connections", "usage"],
    queryFn: ({ signal }) => api.get<ConnectionUsage[]>("/api/settings/connection-usage", { signal }),
  });
}

export function useWebhookStatus() {
  return useQuery({
    queryKey: ["connections", "webhooks"],
    queryFn: ({ signal }) => api.get<WebhookStatus>("/api/webhooks/status", { signal }),
    refetchInterval: 60_000,
  });
}

/** POST /api/webhooks/register — subscribes the connection's callback at the shop. */
export function useRegisterWebhooks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WebhookStatus>("/api/webhooks/register"),
    onSuccess: (data) => client.setQueryData(["connections", "webhooks"], data),
  });
}

/** POST /api/settings/sql-preview/{connectionId} — a configured query's first rows and their mapping. */
export function useSqlPreview() {
  return useMutation({
    mutationFn: ({
      connectionId,
      query,
      sqlConfig,
    }: {
      connectionId: number;
      query: SqlQueryName;
      sqlConfig: string;
    }) => api.post<SqlPreview>(`/api/settings/sql-preview/${connectionId}`, { query, sqlConfig }),
  });
}

/** POST /api/settings/file-import/{connectionId}/{kind} — an Excel/CSV/XML file checked row by row and kept. */
export function useFileImport() {
  const client = useQueryClient();
  return useMutation({
    onSuccess: (_data, { connectionId }) =>
      client.invalidateQueries({ queryKey: fileExchangeKey(connectionId) }),
    mutationFn: ({
      connectionId,
      kind,
      file,
    }: {
      connectionId: number;
      kind: FileImportKind;
      file: File;
    }) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<FileImportResult>(`/api/settings/file-import/${connectionId}/${kind}`, form);
    },
  });
}

const fileExchangeKey = (connectionId: number) => ["settings", "file-exchange", connectionId] as const;

/** GET /api/settings/file-exchange/{connectionId} — kept files in and out, and the agents' watched folders. */
export function useFileExchange(connectionId: number) {
  return useQuery({
    queryKey: fileExchangeKey(connectionId),
    queryFn: () => api.get<FileExchangeOverview>(`/api/settings/file-exchange/${connectionId}`),
    refetchInterval: 15_000,
  });
}

/** GET /api/settings/file-exchange/{connectionId}/{fileId}/rows — one page of a file's per-row results. */
export function useFileRows(connectionId: number, fileId: number | null, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...fileExchangeKey(connectionId), "rows", fileId, page, pageSize],
    queryFn: () =>
      api.get<{ total: number; rows: FileImportResult["rows"] }>(
        `/api/settings/file-exchange/${connectionId}/${fileId}/rows`,
        { query: { page, pageSize } },
      ),
    enabled: fileId !== null,
  });
}

const fileDeleteKey = (connectionId: number) => ["file-import-delete", connectionId] as const;

/**
 * DELETE /api/settings/file-exchange/{connectionId}/{fileId} — a products / stock / prices file; the
 * answer names the file the next sync of that kind reads instead (null: the query).
 */
export function useFileImportDelete(connectionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: fileDeleteKey(connectionId),
    mutationFn: (fileId: number) =>
      api.delete<FileImportDeleted>(`/api/settings/file-exchange/${connectionId}/${fileId}`),
    onSuccess: (_data, fileId) => {
      // Its rows are gone for good; the list (and which file each kind reads) changed.
      client.removeQueries({ queryKey: [...fileExchangeKey(connectionId), "rows", fileId] });
      return client.invalidateQueries({ queryKey: fileExchangeKey(connectionId), exact: true });
    },
  });
}

/** Ids of the files deleted from this page (an upload result shown elsewhere must not outlive its file). */
export function useDeletedFileIds(connectionId: number): number[] {
  return useMutationState({
    filters: { mutationKey: fileDeleteKey(connectionId), status: "success" },
    select: (m) => m.state.variables as number,
  });
}

/** Downloads a file shop's (JetStok's) stock and price file, built from the last stock and price runs. */
export function useStockFileDownload(connectionId: number) {
  return useMutation({
    mutationFn: () => requestBlob(`/api/settings/file-exchange/${connectionId}/stock-file`),
    onSuccess: (blob) => saveFile(blob, blob.fileName ?? "stok-fiyat.xlsx"),
  });
}

/** Downloads an orders file the sync wrote. */
export function useOrdersFileDownload(connectionId: number) {
  return useMutation({
    mutationFn: (fileId: number) =>
      requestBlob(`/api/settings/file-exchange/${connectionId}/${fileId}/download`),
    onSuccess: (blob) => saveFile(blob, blob.fileName ?? "siparisler.csv"),
  });
}
