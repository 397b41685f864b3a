import type { Envelope, FieldError } from "@ep/contracts";

/**
 * THE one API client. Every call goes through `request`: JSON in and out, the bearer header when
 * a token exists, the `{ successful, statusCode, message, data }` envelope unwrapped, and a 401 on
 * a signed-in call handed to the session (clear token and persisted state, go to sign-in).
 * No retries here: TanStack Query runs with retry 0 (spec sections 7 and 9).
 */

type Query = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  query?: Query;
  /** From TanStack Query's queryFn context, so GETs can be cancelled together. */
  signal?: AbortSignal;
};

export type ApiResult<T> = {
  data: T;
  message: string;
  statusCode: number;
  httpStatus: number;
};

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly httpStatus: number,
    /** Business code from the envelope (the HTTP status when the server names none). */
    readonly statusCode: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly data: unknown = null,
  ) {
    super(message);
  }

  get isNetworkError(): boolean {
    return this.httpStatus === 0;
  }
}

type ClientHooks = {
  getToken: () => string | null;
  /** Called once for a 401 answer to a call that carried a token. */
  onUnauthorized: () => void;
};

let hooks: ClientHooks = { getToken: () => null, onUnauthorized: () => {} };

export function configureApiClient(next: Partial<ClientHooks>): void {
  hooks = { ...hooks, ...next };
}

export const API_BASE = "/api";

function buildUrl(path: string, query?: Query): string {
  const url = path.startsWith("/api") ? path : `${API_BASE}${path.startsWith("/") ? "" : "/"}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === "object" && value !== null && "successful" in value && "statusCode" in value;
}

function fieldErrorsOf(data: unknown): FieldError[] {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is FieldError => typeof e?.field === "string" && typeof e?.message === "string",
  );
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const { method = "GET", body, query, signal } = options;
  const token = hooks.getToken();
  const headers: Record<string, string> = { Accept: "application/json" };
  // A FormData body (file uploads) sets its own multipart content type.
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  if (body !== undefined && !isForm) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (signal?.aborted || (error instanceof DOMException && error.name === "AbortError")) throw error;
    throw new ApiError(0, 0, "");
  }

  if (response.status === 401 && token) hooks.onUnauthorized();

  let payload: unknown = null;
  if (response.status !== 204) {
    const text = await response.text();
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = null;
      }
    }
  }

  if (!isEnvelope(payload)) {
    if (!response.ok) throw new ApiError(response.status, response.status, "");
    // 204 or a raw body: hand it back as is, the caller decides what it means.
    return { data: payload as T, message: "", statusCode: response.status, httpStatus: response.status };
  }
  if (!response.ok || !payload.successful) {
    throw new ApiError(
      response.status,
      payload.statusCode,
      payload.message ?? "",
      fieldErrorsOf(payload.data),
      payload.data,
    );
  }
  return {
    data: payload.data as T,
    message: payload.message,
    statusCode: payload.statusCode,
    httpStatus: response.status,
  };
}

/**
 * A file the API streams (attachments, exports): the same auth and 401 handling, answered as a
 * Blob with the file name the server chose; a refusal comes back in the envelope, read as usual.
 */
export async function requestBlob(
  path: string,
  options: { query?: Query; signal?: AbortSignal } = {},
): Promise<Blob & { fileName?: string }> {
  const token = hooks.getToken();
  const response = await fetch(buildUrl(path, options.query), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: "same-origin",
    signal: options.signal,
  }).catch(() => {
    throw new ApiError(0, 0, "");
  });
  if (response.status === 401 && token) hooks.onUnauthorized();
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    if (isEnvelope(payload)) {
      throw new ApiError(
        response.status,
        payload.statusCode,
        payload.message ?? "",
        fieldErrorsOf(payload.data),
      );
    }
    throw new ApiError(response.status, response.status, "");
  }
  const blob = await response.blob().catch(() => {
    // The stream broke off mid-file: a truncated workbook must not be saved.
    throw new ApiError(0, 0, "");
  });
  const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1];
  return Object.assign(blob, { fileName });
}

/** Shorthands answering only `data`. */
export const api = {
  get: async <T>(path: string, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    (await request<T>(path, { ...options, method: "GET" })).data,
  post: async <T>(path: string, body?: unknown, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    (await request<T>(path, { ...options, method: "POST", body })).data,
  put: async <T>(path: string, body?: unknown, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    (await request<T>(path, { ...options, method: "PUT", body })).data,
  delete: async <T>(path: string, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    (await request<T>(path, { ...options, method: "DELETE" })).data,
};
