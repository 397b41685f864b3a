/**
 * Logo REST service emulator on the kit, built from the judge (../judge/rest.ts): the token grant
 * (Basic client id:secret + form user/password/firm → `access_token`, `expires_in`), Bearer checks with
 * expiring tokens, `POST /Revoke`, list reads with `offset`/`limit`/`q` (`FIELD like '…'`, `*` wildcards)
 * answering `{ Meta, items, count }` (the wrapper's shape is inferred), customer cards (`arps`) and sales
 * orders (`salesOrders`, `NUMBER "~"` numbered by the service) answering the record with
 * `INTERNAL_REFERENCE`. A request the judge refuses is answered 400 with `ModelState` lists, as the
 * service's validation errors come. Faults: the kit's (429 + Retry-After, 5xx, timeouts, dropped writes,
 * refused tokens) and a "not licensed" mode in which every `/api/v1` call answers 401, 403 or 404.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, TokenStore } from "../../testing/auth";
import type { EmulatorCounters } from "../../testing/faults";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { judgeLogoRestRequest } from "../judge/rest";

type Row = Record<string, unknown>;

export interface LogoRestEmulatorOptions extends EmulatorOptions {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  firmNo?: number;
  /** Item codes the firm has (orders naming another code are refused). */
  itemCodes?: string[];
  tokenTtlMs?: number;
  /** The service is not licensed / not installed: every `/api/v1` call answers this status. */
  notLicensed?: 401 | 403 | 404 | false;
}

export type LogoRestEmulatorCredentials = {
  restUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  firmNo: string;
};

export interface LogoRestEmulator extends Emulator<EmulatorCounters & { grants: number; revokes: number }> {
  credentials: LogoRestEmulatorCredentials;
  arps: Row[];
  orders: Row[];
  itemCodes: Set<string>;
  setNotLicensed(status: 401 | 403 | 404 | false): void;
  expireTokens(): void;
}

const modelState = (key: string, messages: string[]) => ({
  Message: "The request is invalid.",
  ModelState: { [key]: messages },
});

/** `FIELD like 'v'` with `*` wildcards, joined by and/or (left to right). */
function matchesQ(row: Row, q: string | undefined): boolean {
  if (!q) return true;
  const body = q.trim().replace(/^\((.*)\)$/s, "$1");
  const tokens = body.split(/\s+(and|or)\s+/i);
  let result: boolean | undefined;
  let op = "or";
  for (const t of tokens) {
    if (/^(and|or)$/i.test(t)) {
      op = t.toLowerCase();
      continue;
    }
    const m = /^([A-Z_][A-Z0-9_]*)\s+like\s+'((?:[^']|'')*)'$/i.exec(t.trim());
    const pattern = (m?.[2] ?? "").replace(/''/g, "'");
    const re = new RegExp(
      `^${pattern
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
      "i",
    );
    const hit = m ? re.test(String(row[(m[1] as string).toUpperCase()] ?? "")) : false;
    result = result === undefined ? hit : op === "and" ? result && hit : result || hit;
  }
  return result ?? true;
}

export async function startLogoRestEmulator(opts: LogoRestEmulatorOptions = {}): Promise<LogoRestEmulator> {
  const cred = {
    clientId: opts.clientId ?? "LOGO-EMU-CLIENT",
    clientSecret: opts.clientSecret ?? "logo-emu-client-secret-0001",
    username: opts.username ?? "LOGO",
    password: opts.password ?? "Logo-Emu-Parola1",
    firmNo: String(opts.firmNo ?? 1),
  };
  const server = createEmulatorServer<EmulatorCounters & { grants: number; revokes: number }>(
    {
      ...opts,
      formBodies: true,
      answers: {
        serverError: { status: 500, body: { Message: "An error has occurred." } },
        tooManyRequests: () => ({ Message: "Too many requests." }),
        lock: {
          status: 409,
          body: modelState("DBError", ["Kayıt başka bir kullanıcı tarafından kilitlenmiş."]),
        },
        unauthorized: { status: 401, body: { Message: "Authorization has been denied for this request." } },
      },
    },
    { grants: 0, revokes: 0 },
  );
  const { counters, app } = server;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 119_000, server.now);
  let notLicensed = opts.notLicensed ?? false;
  const itemCodes = new Set(opts.itemCodes ?? []);
  const arps: Row[] = [];
  const orders: Row[] = [];
  let nextRef = 1001;
  let orderNo = 0;

  const asRecorded = (req: FastifyRequest): RecordedRequest => recordedFrom(req, server.now());

  /** Licence, gate, Bearer, judge: "handled" when answered, else the gate's decision. */
  async function enter(req: FastifyRequest, reply: FastifyReply, kind: "read" | "write", operation: string) {
    if (notLicensed) {
      await reply.code(notLicensed).send({ Message: "Logo REST servisi lisansı bulunamadı." });
      return "handled" as const;
    }
    const g = await server.gate(req, reply, { kind, operation });
    if (g === "handled") return g;
    if (tokens.check(bearerToken(req.headers.authorization)) !== "ok") {
      counters.authFailures++;
      server.noteOutcome(true);
      await reply.code(401).send({ Message: "Authorization has been denied for this request." });
      return "handled" as const;
    }
    const verdict = judgeLogoRestRequest(asRecorded(req));
    if (!verdict || verdict.problems.length > 0) {
      server.noteOutcome(true);
      await reply.code(400).send(modelState("ValError0", verdict?.problems ?? ["Bilinmeyen istek."]));
      return "handled" as const;
    }
    return g;
  }

  app.post("/api/v1/token", async (req, reply) => {
    if (notLicensed)
      return reply.code(notLicensed).send({ Message: "Logo REST servisi lisansı bulunamadı." });
    const g = await server.gate(req, reply, { kind: "read", operation: "token" });
    if (g === "handled") return reply;
    const auth = String(req.headers.authorization ?? "");
    const basic = /^Basic (\S+)$/.exec(auth)?.[1];
    const [id, secret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
    if (id !== cred.clientId || secret !== cred.clientSecret)
      return reply.code(401).send({ error: "invalid_client" });
    const b = (req.body ?? {}) as Row;
    if (b.grant_type !== "password") return reply.code(400).send({ error: "unsupported_grant_type" });
    if (b.username !== cred.username || b.password !== cred.password || String(b.firmno) !== cred.firmNo)
      return reply.code(400).send({
        error: "invalid_grant",
        error_description: "Kullanıcı adı, şifre ya da firma numarası hatalı.",
      });
    counters.grants++;
    const t = tokens.issue();
    return reply.send({ access_token: t.token, token_type: "bearer", expires_in: t.expiresIn });
  });

  app.post("/Revoke", async (req, reply) => {
    const token = bearerToken(req.headers.authorization);
    if (token) tokens.revoke(token);
    counters.revokes++;
    return reply.send({});
  });

  function list(rows: Row[], req: FastifyRequest, resource: string) {
    const q = req.query as Row;
    const offset = Number(q.offset ?? 0);
    const limit = Number(q.limit ?? 10);
    const hits = rows.filter((r) => matchesQ(r, q.q === undefined ? undefined : String(q.q)));
    return {
      Meta: { href: `${url}/api/v1/${resource}` },
      items: hits.slice(offset, offset + limit),
      ...(String(q.withCount) === "true" ? { count: hits.length } : {}),
    };
  }

  app.get("/api/v1/arps", async (req, reply) => {
    if ((await enter(req, reply, "read", "GET arps")) === "handled") return reply;
    return reply.send(list(arps, req, "arps"));
  });

  app.get("/api/v1/salesOrders", async (req, reply) => {
    if ((await enter(req, reply, "read", "GET salesOrders")) === "handled") return reply;
    return reply.send(list(orders, req, "salesOrders"));
  });

  app.post("/api/v1/arps", async (req, reply) => {
    const g = await enter(req, reply, "write", "POST arps");
    if (g === "handled") return reply;
    const b = req.body as Row;
    if (arps.some((a) => a.CODE === b.CODE))
      return reply
        .code(400)
        .send(modelState("LOError", [`${String(b.CODE)} kodlu cari hesap kartı zaten var.`]));
    const row = { ...b, INTERNAL_REFERENCE: nextRef++ };
    arps.push(row);
    if (g === "drop") return server.drop(req, reply);
    return reply.send(row);
  });

  app.post("/api/v1/salesOrders", async (req, reply) => {
    const g = await enter(req, reply, "write", "POST salesOrders");
    if (g === "handled") return reply;
    const b = req.body as Row;
    if (!arps.some((a) => a.CODE === b.ARP_CODE))
      return reply.code(400).send(modelState("LOError", [`Cari hesap bulunamadı: ${String(b.ARP_CODE)}`]));
    const lines = ((b.TRANSACTIONS as Row).items as Row[]) ?? [];
    const unknown = lines.find((l) => Number(l.TYPE) === 0 && !itemCodes.has(String(l.MASTER_CODE)));
    if (unknown)
      return reply
        .code(400)
        .send(modelState("ValError0", [`Malzeme kartı bulunamadı: ${String(unknown.MASTER_CODE)}`]));
    orderNo++;
    const number = b.NUMBER === "~" ? `SS${String(orderNo).padStart(6, "0")}` : String(b.NUMBER);
    const row = { ...b, NUMBER: number, INTERNAL_REFERENCE: nextRef++ };
    orders.push(row);
    if (g === "drop") return server.drop(req, reply);
    return reply.send(row);
  });

  const started = await server.start({});
  const { url } = started;
  return {
    ...started,
    credentials: { restUrl: url, ...cred },
    arps,
    orders,
    itemCodes,
    setNotLicensed(status) {
      notLicensed = status;
    },
    expireTokens: () => tokens.expireAll(),
  };
}
