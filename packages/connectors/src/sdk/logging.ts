/** Request/response logging with secrets masked, and the call counter the engine and benchmarks read. */

export type CallKind = "read" | "write";

export interface HttpLogEntry {
  system: string;
  operation: string;
  kind: CallKind;
  method: string;
  url: string;
  attempt: number;
  status?: number;
  durationMs: number;
  requestBody?: string;
  responseBody?: string;
  error?: { kind: string; reason: string; message: string };
}

export type HttpLogger = (entry: HttpLogEntry) => void;

export const MASK = "***";

/** Object keys whose values are always masked, whatever the system (`access`/`refresh`: JWT pair answers). */
const SECRET_KEY =
  /pass(word)?|secret|token|sifre|şifre|api_?key|authorization|client_?secret|access_?token|refresh_?token|cookie|^access$|^refresh$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

function maskValue(value: unknown, depth: number): unknown {
  if (depth > 12) return value;
  if (Array.isArray(value)) return value.map((v) => maskValue(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = isSecretKey(k) && v !== null && v !== undefined && v !== "" ? MASK : maskValue(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Mask secret keys of a JSON value. */
export function maskObject<T>(value: T): T {
  return maskValue(value, 0) as T;
}

/** Mask known secret values anywhere in a text, and secret fields of JSON / form bodies. */
export function maskText(text: string, secrets: Iterable<string>): string {
  let out = text;
  const trimmed = out.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      out = JSON.stringify(maskObject(JSON.parse(out)));
    } catch {
      // not JSON after all
    }
  } else if (/^[\w.%-]+=/.test(trimmed) && !trimmed.includes(" ")) {
    const params = new URLSearchParams(out);
    for (const k of [...params.keys()]) if (isSecretKey(k)) params.set(k, MASK);
    out = params.toString().replaceAll(encodeURIComponent(MASK), MASK);
  }
  for (const s of secrets) {
    if (s && s.length >= 4) {
      out = out.split(s).join(MASK);
      const enc = encodeURIComponent(s);
      if (enc !== s) out = out.split(enc).join(MASK);
    }
  }
  return out;
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecretKey(k) ? MASK : v;
  return out;
}

export interface CallStats {
  read: number;
  write: number;
  failed: number;
  retried: number;
}

/** Counts external calls per (system, read|write). Shared by all clients of a run or a process. */
export class CallCounter {
  private readonly stats = new Map<string, CallStats>();
  private readonly ops = new Map<string, number>();

  private entry(system: string): CallStats {
    let s = this.stats.get(system);
    if (!s) {
      s = { read: 0, write: 0, failed: 0, retried: 0 };
      this.stats.set(system, s);
    }
    return s;
  }

  record(system: string, kind: CallKind, operation?: string): void {
    this.entry(system)[kind]++;
    if (operation) {
      const k = `${system}:${operation}`;
      this.ops.set(k, (this.ops.get(k) ?? 0) + 1);
    }
  }

  recordFailure(system: string): void {
    this.entry(system).failed++;
  }

  recordRetry(system: string): void {
    this.entry(system).retried++;
  }

  get(system: string): CallStats {
    return { ...this.entry(system) };
  }

  /** Calls per "system:operation". */
  byOperation(): Record<string, number> {
    return Object.fromEntries(this.ops);
  }

  total(): CallStats {
    const t: CallStats = { read: 0, write: 0, failed: 0, retried: 0 };
    for (const s of this.stats.values()) {
      t.read += s.read;
      t.write += s.write;
      t.failed += s.failed;
      t.retried += s.retried;
    }
    return t;
  }

  reset(): void {
    this.stats.clear();
    this.ops.clear();
  }
}
