/**
 * Netsis NetOpenX REST emulator on the kit, built from the judge (../judge): `POST /api/v2/token`
 * (form, password grant with branch and company database; tokens that expire), then bearer calls that
 * answer the DLL's envelopes — `TResult { IsSuccessful, ErrorCode, ErrorDesc, Message, Data }` and
 * `TSelectData` (+ `Offset`, `Limit`, `TotalCount`) — in HTTP 200 even on failure. Every request is
 * judged first: an unknown field, a missing required one or a SELECT over an unknown table is refused
 * as the server refuses (IsSuccessful false). Lists take the DLL's `limit`/`offset`/`sort`/`q`;
 * `Queries` runs one SELECT over TBLSTOKPH / TBLSTOKDP / TBLSTGRUP. Faults: 429, 5xx, timeouts,
 * dropped writes, expired tokens. Seeded Turkish data from the kit.
 */

import type { FastifyRequest } from "fastify";
import { runSelect, SqlError } from "../../mikro/emulator/sql";
import { bearerToken, TokenStore } from "../../testing/auth";
import type { EmulatorCounters, FaultConfig } from "../../testing/faults";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { ENUMS } from "../judge/models";
import { judgeNetsisRequest, netsisRoute } from "../judge/requests";
import { NETSIS_RULES, type NetsisTokenSide } from "../judge/rules";
import { createNetsisCompany, fail, type NetsisSlip, ok, type Row, s } from "./company";

export { type NetsisSlip, netsisDateTime } from "./company";

export interface NetsisEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  netsisUser?: string;
  netsisPassword?: string;
  dbName?: string;
  dbUser?: string;
  dbPassword?: string;
  branchCode?: number;
  /** Token lifetime (inferred; the 3P answer shows `expires_in` ≈ 20 minutes). */
  tokenTtlMs?: number;
  /**
   * Which side of the `dbtype` disagreement the server plays (judge/rules.ts): "dll" (default) takes the
   * vendor client's form; "server-9.0.67" fails a token request that carries dbtype with HTTP 500.
   */
  tokenSide?: NetsisTokenSide;
}

export type NetsisEmulatorCredentials = {
  apiUrl: string;
  netsisUser: string;
  netsisPassword: string;
  dbName: string;
  dbType: string;
  dbUser: string;
  dbPassword: string;
  branchCode: string;
  depotCode: string;
  orderSeries: string;
  customerPrefix: string;
};

export interface NetsisEmulator extends Emulator<EmulatorCounters & { logins: number }> {
  credentials: NetsisEmulatorCredentials;
  setFaults(config: FaultConfig): void;
  /** Items rows ({ StokTemelBilgi, StokEkBilgi }), accounts (ARPs rows) and slips. */
  items: Row[];
  accounts: Row[];
  slips: NetsisSlip[];
  /** Customer orders by our reference (EKACK1) → their FATIRS_NO values. */
  documentsByOrder(): Map<string, Set<string>>;
  setStock(sku: string, depot: number, qty: number): void;
  /** In − out of an item in a depot (TBLSTOKPH). */
  quantity(sku: string, depot: number): number;
  /** Issue a sales invoice for an order (by EKACK1), as the accountant does in Netsis. */
  invoiceOrder(ref: string): boolean;
  /** Every token expires now (the next call answers 401). */
  expireTokens(): void;
  /** The runtime rules' gate (judge/rules.ts): how many requests it refused. */
  rules: RuleGate<RecordedRequest, Row>;
}

const DENIED = { Message: "Authorization has been denied for this request." };
export async function startNetsisEmulator(opts: NetsisEmulatorOptions = {}): Promise<NetsisEmulator> {
  const seed = opts.seed ?? 1;
  const cred = {
    user: opts.netsisUser ?? "NETSIS",
    password: opts.netsisPassword ?? "Netsis-Emu-Parola1",
    db: opts.dbName ?? "DEMO2026",
    dbUser: opts.dbUser ?? "TEMELSET",
    dbPassword: opts.dbPassword ?? "",
    branch: opts.branchCode ?? 0,
  };
  const server = createEmulatorServer<EmulatorCounters & { logins: number }>(
    {
      ...opts,
      formBodies: true,
      answers: {
        // ASP.NET Web API's own 500 body (inferred: NetOpenX REST is hosted on it; see the 401 text).
        serverError: { status: 500, body: { Message: "An error has occurred." } },
        tooManyRequests: () => ({ Message: "Too many requests." }),
        lock: { status: 200, body: fail("Kayıt başka bir kullanıcı tarafından kilitlenmiş.") },
        unauthorized: { status: 401, body: DENIED },
      },
    },
    { logins: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 20 * 60_000, now);
  // What the runtime rules refuse, refused as the server refuses a request (HTTP 200, IsSuccessful false).
  // (The token route answers a refusal with HTTP 500 instead: see there.)
  const rules = new RuleGate<RecordedRequest, Row>(NETSIS_RULES, (v) => fail(v.problems.join("; "), "400"), {
    side: opts.tokenSide ?? "dll",
  });

  const company = createNetsisCompany({
    seed,
    productCount: opts.productCount ?? 0,
    branch: cred.branch,
    now,
  });

  const recorded = (req: FastifyRequest): RecordedRequest => recordedFrom(req, now());

  server.app.post("/api/v2/token", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "read", operation: "token" });
    if (gate === "handled") return reply;
    counters.logins++;
    const verdict = judgeNetsisRequest(recorded(req));
    const b = (req.body ?? {}) as Row;
    // ASP.NET Web API's generic answer to an unhandled exception (inferred: the 3P note says "crashed").
    if (rules.check(recorded(req))) {
      server.noteOutcome(true);
      return reply.code(500).send({ Message: "An error has occurred." });
    }
    if (verdict && verdict.problems.length > 0) {
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_request", error_description: verdict.problems.join("; ") });
    }
    if (s(b.username) !== cred.user || s(b.password) !== cred.password) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_grant", error_description: "Kullanıcı adı veya şifre hatalı." });
    }
    if (
      s(b.dbname).toUpperCase() !== cred.db ||
      s(b.dbuser) !== cred.dbUser ||
      s(b.dbpassword) !== cred.dbPassword
    ) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_grant", error_description: `${s(b.dbname)} şirketine bağlanılamadı.` });
    }
    if (Number(s(b.branchcode)) !== cred.branch) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply.code(400).send({
        error: "invalid_grant",
        error_description: `${s(b.branchcode)} kodlu şube için yetkiniz yok.`,
      });
    }
    const t = tokens.issue();
    return reply.send({ access_token: t.token, token_type: "bearer", expires_in: t.expiresIn });
  });

  function operationOf(method: string, path: string): { op: string; write: boolean } {
    const p = path.slice("/api/v2/".length);
    if (p === "ItemSlips/MainInfo/") return { op: "ItemSlips:MainInfo", write: false };
    if (p === "ItemSlips/" && method === "POST") return { op: "ItemSlips:post", write: true };
    if (p.startsWith("ItemSlips/")) return { op: "ItemSlips:get", write: false };
    if (p === "ARPs/" && method === "POST") return { op: "ARPs:post", write: true };
    if (p === "ARPs/") return { op: "ARPs", write: false };
    if (p === "Items/") return { op: "Items", write: false };
    if (p === "Queries/") return { op: "Queries", write: false };
    return { op: p, write: method !== "GET" };
  }

  async function handle(req: FastifyRequest, reply: import("fastify").FastifyReply) {
    const path = netsisRoute(req.url.split("?")[0] ?? req.url);
    const { op, write } = operationOf(req.method, path);
    const gate = await server.gate(req, reply, { kind: write ? "write" : "read", operation: op });
    if (gate === "handled") return reply;
    if (tokens.check(bearerToken(req.headers.authorization)) !== "ok") {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply.code(401).send(DENIED);
    }
    const verdict = judgeNetsisRequest(recorded(req));
    if (!verdict || verdict.problems.some((p) => p.startsWith("route not in"))) {
      server.noteOutcome(true);
      return reply
        .code(404)
        .send({ Message: `No HTTP resource was found that matches the request URI '${path}'.` });
    }
    let answer: Row;
    const broken = verdict.problems.length > 0 ? undefined : rules.check(recorded(req));
    if (verdict.problems.length > 0) answer = fail(verdict.problems.join("; "), "400");
    else if (broken) answer = broken;
    else {
      const query = (req.query ?? {}) as Row;
      const body = (req.body ?? {}) as Row;
      try {
        switch (op) {
          case "Items": {
            const page = company.listRows(company.itemsTable, query, "Stok_Kodu");
            answer = ok(
              page.rows.map((p) => ({
                StokTemelBilgi: p,
                StokEkBilgi: company.supp.get(s(p.Stok_Kodu)) ?? null,
              })),
              { Offset: page.offset, Limit: page.limit, TotalCount: page.total },
            );
            break;
          }
          case "ARPs": {
            const page = company.listRows(company.arpsTable, query, "CARI_KOD");
            const byCode = new Map(company.accounts.map((a) => [s((a.CariTemelBilgi as Row).CARI_KOD), a]));
            answer = ok(
              page.rows.map((p) => byCode.get(s(p.CARI_KOD))),
              { Offset: page.offset, Limit: page.limit, TotalCount: page.total },
            );
            break;
          }
          case "ItemSlips:MainInfo": {
            const page = company.listRows(company.headsTable, query, "FATIRS_NO");
            answer = ok(page.rows, { Offset: page.offset, Limit: page.limit, TotalCount: page.total });
            break;
          }
          case "ItemSlips:get": {
            const id = decodeURIComponent(path.slice("/api/v2/ItemSlips/".length).replace(/\/$/, ""));
            const [tipName, no, cari] = id.split(";");
            const tip = ENUMS.JTFaturaTip?.[tipName ?? ""];
            const slip = company.slips.find(
              (x) => x.FaturaTip === tip && x.FatUst.FATIRS_NO === no && x.FatUst.CariKod === cari,
            );
            answer = slip ? ok(slip) : fail("Kayıt bulunamadı.");
            break;
          }
          case "ARPs:post":
            answer = company.postAccount(body);
            break;
          case "ItemSlips:post":
            answer = company.postSlip(body);
            break;
          default: {
            // Queries
            const rows = runSelect(String(body.TSql), company.sql);
            answer = ok(rows);
          }
        }
      } catch (e) {
        if (!(e instanceof SqlError)) throw e;
        answer = fail(e.message, "400");
      }
    }
    if (answer.IsSuccessful === false) server.noteOutcome(true);
    if (gate === "drop") return server.drop(req, reply);
    return reply.send(answer);
  }

  server.app.get("/api/v2/*", handle);
  server.app.post("/api/v2/*", handle);

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: {
      apiUrl: url,
      netsisUser: cred.user,
      netsisPassword: cred.password,
      dbName: cred.db,
      dbType: "0",
      dbUser: cred.dbUser,
      dbPassword: cred.dbPassword,
      branchCode: String(cred.branch),
      depotCode: "1",
      orderSeries: "W",
      customerPrefix: "120.W.",
    },
    setFaults: (c) => server.faults.set(c),
    items: company.items,
    accounts: company.accounts,
    slips: company.slips,
    documentsByOrder: company.documentsByOrder,
    setStock: company.setStock,
    quantity: company.quantity,
    invoiceOrder: company.invoiceOrder,
    expireTokens() {
      tokens.expireAll();
    },
    rules,
  };
}
