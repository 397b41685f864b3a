import type {
  ConnectorContext,
  ConnectorDescriptor,
  CredentialField,
  Credentials,
  ShopCapability,
} from "./connector";
import { ConnectorError } from "./errors";
import { HttpClient } from "./http";
import { RateLimiter } from "./rate-limit";

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

export function round2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/** Check the required credential fields; a missing one is a permanent 'config' failure. */
export function requireCredentials(
  system: string,
  fields: readonly CredentialField[],
  creds: Credentials,
): Record<string, string> {
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const f of fields) {
    const v = creds[f.name] ?? f.default;
    if (v === undefined || v === "") {
      if (f.required) missing.push(f.name);
    } else out[f.name] = v;
  }
  if (missing.length > 0) {
    throw new ConnectorError(`${system}: missing connection settings: ${missing.join(", ")}`, {
      reason: "config",
      system,
    });
  }
  return out;
}

/** Opaque page tokens: base64url JSON. */
export function encodeToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

export function decodeToken<T>(token: string | undefined, system: string): T | undefined {
  if (!token) return undefined;
  try {
    return JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as T;
  } catch (e) {
    throw new ConnectorError(`${system}: invalid page token`, { reason: "validation", system, cause: e });
  }
}

/** The HttpClient of a connector: rate limiter keyed by (company, system), the engine's logger and counter. */
export function createConnectorHttp(
  descriptor: ConnectorDescriptor,
  ctx: ConnectorContext,
  opts: { baseUrl?: string; secrets?: string[] } = {},
): HttpClient {
  const budget = ctx.budget ?? descriptor.budget;
  const rateLimiter = new RateLimiter({
    store: ctx.rateLimitStore,
    key: `${ctx.companyId}:${descriptor.system}`,
    budget,
    // Real time, not ctx.now: the limiter's state is shared with other processes.
  });
  return new HttpClient({
    system: descriptor.system,
    baseUrl: opts.baseUrl,
    timeoutMs: ctx.timeoutMs,
    retry: ctx.retry,
    rateLimiter,
    logger: ctx.logger,
    counter: ctx.counter,
    secrets: opts.secrets,
    fetch: ctx.fetch,
  });
}

/** The failure of a shop operation the descriptor declares unsupported (its Turkish reason for the merchant). */
export function unsupportedOperation(
  descriptor: ConnectorDescriptor,
  capability: ShopCapability,
  operation: string,
): ConnectorError {
  return new ConnectorError(`${descriptor.system} ${operation}: not supported`, {
    reason: "unsupported",
    system: descriptor.system,
    operation,
    merchantMessage: descriptor.unsupported?.[capability],
  });
}
