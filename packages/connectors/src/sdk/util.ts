import { createHash } from "node:crypto";
import type {
  ConnectorContext,
  ConnectorDescriptor,
  CredentialField,
  Credentials,
  ShopCapability,
} from "./connector";
import { ConnectorError } from "./errors";
import { HttpClient } from "./http";
import type { OrderLine } from "./model";
import { RateLimiter } from "./rate-limit";

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

/**
 * Chunks of at most `size` that keep items of one group (consecutive items with the same key) together:
 * a group starts a new chunk when it would not fit in the current one; only a group larger than `size`
 * is split.
 */
export function chunkGroups<T>(items: readonly T[], size: number, key: (item: T) => string): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  let current: T[] = [];
  for (let i = 0; i < items.length; ) {
    let end = i + 1;
    while (end < items.length && key(items[end]!) === key(items[i]!)) end++;
    const group = items.slice(i, end);
    if (current.length > 0 && current.length + group.length > n) {
      out.push(current);
      current = [];
    }
    for (const part of chunk(group, n)) {
      if (current.length + part.length > n) {
        out.push(current);
        current = [];
      }
      current.push(...part);
    }
    i = end;
  }
  if (current.length > 0) out.push(current);
  return out;
}

const TURKISH_TO_ASCII: Record<string, string> = { Ç: "C", Ğ: "G", İ: "I", Ö: "O", Ş: "S", Ü: "U" };

/** The upper-case ASCII letters and digits of a Turkish text (ç → C, ğ → G, …): what ERP codes take. */
export function asciiCode(text: string): string {
  return text
    .toLocaleUpperCase("tr-TR")
    .replace(/[ÇĞİÖŞÜ]/g, (c) => TURKISH_TO_ASCII[c] ?? c)
    .replace(/[^A-Z0-9]/g, "");
}

/**
 * A deterministic ERP customer code for our customer reference: `prefix` and the reference's ASCII
 * letters and digits, or, when that exceeds `max` characters, a cut of them with "-" and the first 8
 * hex digits of the reference's SHA-1 (so two long references never share a code).
 */
export function customerCodeOf(ref: string, prefix: string, max: number): string {
  const clean = asciiCode(ref);
  if (prefix.length + clean.length <= max) return prefix + clean;
  const hash = createHash("sha1").update(ref).digest("hex").slice(0, 8).toUpperCase();
  return `${prefix}${clean.slice(0, Math.max(0, max - prefix.length - 9))}-${hash}`;
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

/** A full name as first names and last name ("Ayşe Nur Yılmaz" → ["Ayşe Nur", "Yılmaz"]). */
export function splitName(name: string): [string, string] {
  const parts = name.trim().split(/\s+/);
  if (parts.length < 2) return [parts[0] ?? "", ""];
  return [parts.slice(0, -1).join(" "), parts[parts.length - 1] ?? ""];
}

/**
 * A shop's order line from its numbers: quantity at least 1, a missing total is price × quantity, a
 * missing unit price is total ÷ quantity, and a line without a name is named by its SKU.
 */
export function shopOrderLine(l: {
  sku: string;
  name: string;
  qty: number;
  price: number;
  total: number;
  vatRate?: number;
  discount?: number;
}): OrderLine {
  const qty = l.qty || 1;
  const total = l.total || round2(l.price * qty);
  return {
    sku: l.sku,
    name: l.name || l.sku,
    qty,
    unitPrice: l.price || round2(total / qty),
    vatRate: l.vatRate ?? 0,
    discount: l.discount ?? 0,
    total,
  };
}
