import { isAbsolute, resolve } from "node:path";
import { parseOutboundAllow } from "@ep/connectors";
import { PARTNER_ENTRIES } from "@ep/contracts";
import { z } from "zod";
import { DEMO_DEFAULT_EMAIL, DEMO_DEFAULT_PASSWORD } from "./modules/demo/defaults.ts";

const captchaModes = ["off", "adaptive", "required"] as const;
export type CaptchaMode = (typeof captchaModes)[number];

const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);

const schema = z.object({
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "PORT must be a number" })
      .int()
      .min(0)
      .max(65535, "PORT must be 0–65535")
      .default(3000),
  ),
  HOST: z.preprocess(
    emptyToUndefined,
    z
      .union([z.ipv4(), z.ipv6(), z.literal("localhost")], {
        error: "HOST must be an IP address (127.0.0.1, 0.0.0.0, ::) or localhost",
      })
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  EMBEDDED_DB: z.preprocess(emptyToUndefined, z.enum(["postgres", "pglite"]).default("postgres")),
  FAIRNESS: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
      .optional(),
  ),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "PUBLIC_URL must be an absolute URL" }).optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().default("Entegrasyon Paneli <no-reply@entegrasyon.local>"),
  ),
  CAPTCHA: z.preprocess(
    emptyToUndefined,
    z.enum(captchaModes, { error: "CAPTCHA must be one of off, adaptive, required" }).default("adaptive"),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .optional(),
  ),
  LOG_FORMAT: z.preprocess(
    emptyToUndefined,
    z.enum(["pretty", "json"], { error: "LOG_FORMAT must be pretty or json" }).optional(),
  ),
  TOKEN_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, "TOKEN_SECRET must be at least 32 characters").optional(),
  ),
  CREDENTIAL_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+:[A-Za-z0-9+/=]{43,44}$/, "CREDENTIAL_KEY must be keyId:base64 of 32 bytes")
      .optional(),
  ),
  DEMO: z.preprocess(emptyToUndefined, z.enum(["0", "1"], { error: "DEMO must be 0 or 1" }).optional()),
  DEMO_AGENT: z.preprocess(
    emptyToUndefined,
    z.enum(["0", "1"], { error: "DEMO_AGENT must be 0 or 1" }).default("1"),
  ),
  DEMO_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email({ error: "DEMO_EMAIL must be an e-mail address" }).optional(),
  ),
  DEMO_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(8, "DEMO_PASSWORD must be at least 8 characters").max(50).optional(),
  ),
  ENGINE_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "ENGINE_LEASE_SECONDS must be a number" }).int().min(2).max(3600).default(60),
  ),
  CONNECTOR_TIMEOUT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "CONNECTOR_TIMEOUT_SECONDS must be a number" }).min(0.1).max(600).default(30),
  ),
  STOCK_PROBE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "STOCK_PROBE_SECONDS must be a number" })
      .min(0)
      .max(3600)
      .refine((n) => n === 0 || n >= 1, "STOCK_PROBE_SECONDS must be 0 (off) or at least 1")
      .default(15),
  ),
  AGENT_OFFLINE_WAIT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "AGENT_OFFLINE_WAIT_SECONDS must be a number" }).min(0.1).max(600).default(30),
  ),
  CONNECTOR_RATE_MULTIPLIER: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "CONNECTOR_RATE_MULTIPLIER must be a number" }).min(0.01).max(1000).default(1),
  ),
  SUPPORT_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email({ error: "SUPPORT_EMAIL must be an e-mail address" }).optional(),
  ),
  SUPPORT_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(8, "SUPPORT_PASSWORD must be at least 8 characters").max(50).optional(),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^(off|\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
        "TRUST_PROXY must be off, a hop count, or comma-separated proxy addresses",
      )
      .default("off"),
  ),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, "METRICS_TOKEN must be at least 16 characters").max(200).optional(),
  ),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "HTTP_REQUEST_TIMEOUT_SECONDS must be a number" })
      .min(1, "HTTP_REQUEST_TIMEOUT_SECONDS must be 1–3600")
      .max(3600, "HTTP_REQUEST_TIMEOUT_SECONDS must be 1–3600")
      .default(60),
  ),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "HTTP_HEADERS_TIMEOUT_SECONDS must be a number" })
      .min(1, "HTTP_HEADERS_TIMEOUT_SECONDS must be 1–300")
      .max(300, "HTTP_HEADERS_TIMEOUT_SECONDS must be 1–300")
      .default(10),
  ),
  HTTP_KEEP_ALIVE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "HTTP_KEEP_ALIVE_SECONDS must be a number" })
      .min(1, "HTTP_KEEP_ALIVE_SECONDS must be 1–600")
      .max(600, "HTTP_KEEP_ALIVE_SECONDS must be 1–600")
      .default(10),
  ),
  OUTBOUND_ALLOW: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) =>
          v.split(",").every((entry) => {
            try {
              parseOutboundAllow(entry);
              return true;
            } catch {
              return false;
            }
          }),
        "OUTBOUND_ALLOW must be comma-separated addresses or networks, each with an optional port (127.0.0.1:4010, 10.0.0.0/8, [::1]:4010)",
      )
      .optional(),
  ),
  ROLE: z.preprocess(
    emptyToUndefined,
    z.enum(["all", "api", "worker"], { error: "ROLE must be one of all, api, worker" }).default("all"),
  ),
  LOGO_ISBASI_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "LOGO_ISBASI_API_URL must be an absolute URL" }).optional(),
  ),
});

/**
 * Each partner app's settings from the environment, named by the partner list (IDEASOFT_CLIENT_ID,
 * SHOPIFY_CLIENT_SECRET, …); unset ones stay undefined and the install link names them.
 */
function partnerSettings(env: NodeJS.ProcessEnv): Record<string, PartnerSettings> {
  const out: Record<string, PartnerSettings> = {};
  for (const e of PARTNER_ENTRIES) {
    if (!e.settings) continue;
    const value = (name: string) => env[name]?.trim() || undefined;
    const oauthBase = value(e.settings.oauthBase);
    if (oauthBase && !z.url().safeParse(oauthBase).success)
      throw new ConfigError([`${e.settings.oauthBase} must be an absolute URL`]);
    out[e.product] = {
      clientId: value(e.settings.clientId),
      clientSecret: value(e.settings.clientSecret),
      oauthBase: oauthBase?.replace(/\/$/, ""),
    };
  }
  return out;
}

export type PartnerSettings = {
  clientId: string | undefined;
  clientSecret: string | undefined;
  oauthBase: string | undefined;
};

export type Config = {
  port: number;
  /**
   * The address the HTTP server listens on. Default: loopback while the demo runs (its password is
   * served to anyone who can reach `/api/config`), every interface otherwise.
   */
  host: string;
  dataDir: string;
  /** Without DATABASE_URL: PostgreSQL run by the server under the data dir, or PGlite. */
  embeddedDb: "postgres" | "pglite";
  databaseUrl: string | undefined;
  publicUrl: string;
  /**
   * Where this server serves its built-in sandbox systems (`/sandbox/{system}/…`), the one address our
   * own connectors call back on: PUBLIC_URL when set, otherwise the loopback port. An outbound-call
   * guard allowlists this origin.
   */
  sandboxUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  captcha: CaptchaMode;
  logLevel: string;
  /** Lines for a person at a terminal, or JSON for a log collector. */
  logFormat: "pretty" | "json";
  tokenSecret: string | undefined;
  credentialKey: string | undefined;
  role: "all" | "api" | "worker";
  /**
   * Which proxies may name the client's address in X-Forwarded-For. Off by default: the sign-in
   * throttle counts failures per address, and a header anyone can set must not choose it.
   */
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
  /**
   * Non-public addresses external-system calls may reach all the same (emulators, tests). Empty by
   * default: loopback, private, link-local and multicast addresses are refused (SSRF).
   */
  outboundAllow: string[];
  /** A run whose worker stops renewing its lease for this long is marked Crashed. */
  engineLeaseMs: number;
  /** How long one call to an external system may take before it counts as a timeout. */
  connectorTimeoutMs: number;
  /** How often each stock job asks its ERP what changed since its last run (0 = off; see engine jobs/change-probe.ts). */
  stockProbeMs: number;
  /** How long a call through an offline on-site agent waits for it to come back before failing. */
  agentOfflineWaitMs: number;
  /** Scales every connector's request budget: for emulators only (benchmarks, tests); 1 against real systems. */
  connectorRateMultiplier: number;
  /** A support-team account made (or its password reset) at start; null unless both are set. */
  supportAccount: { email: string; password: string } | null;
  /**
   * Seed and run the demo company, print its sign-in and offer it on the sign-in screen: only with
   * DEMO=1 (the default on the embedded database, where `npm start` is a try-out on one machine; 0 on
   * PostgreSQL), so no server install hands out a known password unless it was started as a demo.
   */
  demo: { email: string; password: string } | null;
  /** The demo's ERP through a real on-site agent process started beside the server (DEMO_AGENT=0: directly). */
  demoAgent: boolean;
  /**
   * Who may read `/metrics`: a bearer token when METRICS_TOKEN is set; without one, anyone on the
   * embedded database (a single-machine install), nobody on PostgreSQL (a server install).
   */
  metrics: { token: string } | "open" | "off";
  /** Cut-offs for slow or idle clients (milliseconds). */
  http: { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number };
  /**
   * Our apps at the shops with an OAuth install (Ideasoft, Shopify), by `{product}`: each setting as
   * set (unset ones are named to the merchant by the install link). `oauthBase` replaces the store's own
   * `https://{domain}` for the token call and the API (an emulator).
   */
  partners: Record<string, PartnerSettings>;
  /**
   * Logo's sign-on (`/logo-auth-redirect`): the İşbaşı API the arriving user's key is checked against.
   * Unset: the connector's default (the live host); an emulator or Logo's test host otherwise.
   */
  logoIsbasi: { apiUrl: string | undefined };
  /** Per-company slots and queues for API and heavy work (platform/http/fairness.ts); FAIRNESS=off for benches' baselines. */
  fairness: boolean;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Trust the nearest `count` proxies, as proxy-addr does for a hop count. */
function trustHops(count: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < count;
}

/** Reads and validates the environment once at start; every bad value is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const c = parsed.data;
  const logFormat =
    c.LOG_FORMAT ?? (process.stdout.isTTY && env.NODE_ENV !== "production" ? "pretty" : "json");
  // npm runs workspace scripts inside the workspace folder; relative paths mean the caller's folder.
  const base = env.INIT_CWD ?? process.cwd();
  const demo = (c.DEMO ?? (c.DATABASE_URL ? "0" : "1")) === "1";
  const host = c.HOST ?? (demo ? "127.0.0.1" : "0.0.0.0");
  // The sandbox is called back on loopback, unless the server listens on one other address only.
  const callbackHost = /^(0\.0\.0\.0$|::$|127\.|localhost$)/.test(host)
    ? "127.0.0.1"
    : host.includes(":")
      ? `[${host}]`
      : host;
  return {
    port: c.PORT,
    host,
    dataDir: isAbsolute(c.DATA_DIR) ? c.DATA_DIR : resolve(base, c.DATA_DIR),
    embeddedDb: c.EMBEDDED_DB,
    fairness: c.FAIRNESS === "on",
    databaseUrl: c.DATABASE_URL,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
    // 127.0.0.1, not localhost: the server listens on IPv4 and localhost may resolve to ::1 first.
    sandboxUrl: `${(c.PUBLIC_URL ?? `http://${callbackHost}:${c.PORT}`).replace(/\/$/, "")}/sandbox`,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    captcha: c.CAPTCHA,
    // A person at a terminal sees problems only (the banner says the rest); machines get every info line.
    logLevel: c.LOG_LEVEL ?? (logFormat === "pretty" ? "warn" : "info"),
    logFormat,
    tokenSecret: c.TOKEN_SECRET,
    credentialKey: c.CREDENTIAL_KEY,
    role: c.ROLE,
    trustProxy:
      c.TRUST_PROXY === "off"
        ? false
        : /^\d+$/.test(c.TRUST_PROXY)
          ? trustHops(Number(c.TRUST_PROXY))
          : c.TRUST_PROXY.split(","),
    outboundAllow: c.OUTBOUND_ALLOW ? c.OUTBOUND_ALLOW.split(",").map((e) => e.trim()) : [],
    engineLeaseMs: c.ENGINE_LEASE_SECONDS * 1000,
    connectorTimeoutMs: Math.round(c.CONNECTOR_TIMEOUT_SECONDS * 1000),
    stockProbeMs: Math.round(c.STOCK_PROBE_SECONDS * 1000),
    agentOfflineWaitMs: Math.round(c.AGENT_OFFLINE_WAIT_SECONDS * 1000),
    connectorRateMultiplier: c.CONNECTOR_RATE_MULTIPLIER,
    supportAccount:
      c.SUPPORT_EMAIL && c.SUPPORT_PASSWORD ? { email: c.SUPPORT_EMAIL, password: c.SUPPORT_PASSWORD } : null,
    demo: demo
      ? { email: c.DEMO_EMAIL ?? DEMO_DEFAULT_EMAIL, password: c.DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD }
      : null,
    demoAgent: c.DEMO_AGENT === "1",
    metrics: c.METRICS_TOKEN ? { token: c.METRICS_TOKEN } : c.DATABASE_URL ? "off" : "open",
    http: {
      requestTimeoutMs: Math.round(c.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
      headersTimeoutMs: Math.round(c.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(c.HTTP_KEEP_ALIVE_SECONDS * 1000),
    },
    partners: partnerSettings(env),
    logoIsbasi: { apiUrl: c.LOGO_ISBASI_API_URL?.replace(/\/$/, "") },
  };
}
