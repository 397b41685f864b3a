/**
 * Nebim V3 Integrator emulator on the kit. It serves both IIS modes — session (`/(S(id))/IntegratorService/…`)
 * and token (`Token` header) — with `Connect` (which "succeeds" for any password, as the docs warn),
 * `GetUserInfo` (where a wrong login shows), `Post` validated by the judge derived from the published
 * samples (../judge: a refused model answers the service's error shape `{ModelType: 0, ExceptionMessage,
 * StackTrace}`), `RunProc` against a set of stored procedures (SQL Server's own words for an unknown
 * procedure or a missing parameter), sessions that idle out ("Boş akışın serisini kaldırma girişimi.",
 * docs/99-errors.md) and the kit's faults (429, 5xx, timeouts, dropped writes, refused sessions).
 * The HTTP status of an error answer and the shape of a Post's answer (the model echoed back with its
 * number) are inferred: the docs show neither.
 */

import { randomBytes } from "node:crypto";
import type { EmulatorCounters } from "../../testing/faults";
import type { RecordedRequest } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { NEBIM_DEFAULT_PROCS } from "../descriptor";
import { parseNebimPath } from "../judge/requests";
import { NEBIM_RULES, type NebimSessionSide } from "../judge/rules";
import { createNebimTenant, NebimFail, type NebimOrderRecord, type Row, s } from "./tenant";

export type { NebimOrderRecord } from "./tenant";

export interface NebimEmulatorOptions extends EmulatorOptions {
  /** Address the tenant is served at when `listen: false` (the credentials' `serviceUrl`). */
  baseUrl?: string;
  productCount?: number;
  /** How the IIS session state is set: InProc (session) or off (token). */
  mode?: "session" | "token";
  /**
   * Session mode, where sources disagree (judge/rules.ts): "cookieless-redirect" answers every URL without
   * `(S(id))` with a 302 to the session URL (a followed POST loses its body); "direct" (default) answers a
   * bare Connect with the session itself.
   */
  sessionUrl?: NebimSessionSide;
  /** Web.config names an Integrator user, so a Connect without a body signs in (docs/01-1). Default: none. */
  webConfigUser?: boolean;
  databaseName?: string;
  userGroupCode?: string;
  userName?: string;
  password?: string;
  officeCode?: string;
  storeCode?: string;
  /** Stored procedure names the tenant has (defaults: NEBIM_DEFAULT_PROCS). */
  procs?: Partial<Record<keyof typeof NEBIM_DEFAULT_PROCS, string>>;
  sessionIdleMs?: number;
}

export interface NebimEmulator
  extends Emulator<EmulatorCounters & { connects: number; posts: number; refused: number }> {
  /** The connection form a company fills for this tenant (system type 1). */
  credentials: Record<string, string>;
  systemType: 1;
  customers: Map<string, Row>;
  orders: NebimOrderRecord[];
  /** Our order number (DocumentNumber) → the Nebim orders holding it. */
  documentsByOrder(): Map<string, Set<string>>;
  setStock(itemCode: string, warehouse: string, qty: number): void;
  setPrice(itemCode: string, group: string, amount: number): void;
  /** Every session / token idles out now. */
  expireSessions(): void;
  /** The runtime rules' gate (judge/rules.ts), playing the side of `sessionUrl` in session mode. */
  rules: RuleGate<RecordedRequest, string>;
  /** The side of the session-URL disagreement this emulator plays (undefined in token mode). */
  side?: NebimSessionSide;
}

const stack = (where: string) =>
  Buffer.from(
    `   konum: NebimV3.Integrator.${where}()\r\n   konum: System.Web.Mvc.ControllerActionInvoker`,
  ).toString("base64");

export async function startNebimEmulator(opts: NebimEmulatorOptions = {}): Promise<NebimEmulator> {
  const seed = opts.seed ?? 1;
  const mode = opts.mode ?? "session";
  const side = mode === "session" ? (opts.sessionUrl ?? "direct") : undefined;
  const user = {
    DatabaseName: opts.databaseName ?? "NEBIMV3",
    UserGroupCode: opts.userGroupCode ?? "V3",
    UserName: opts.userName ?? "INT",
    Password: opts.password ?? "Nebim-Emu-1",
    OfficeCode: opts.officeCode ?? "M",
    StoreCode: opts.storeCode ?? "M01",
  };
  const procs = { ...NEBIM_DEFAULT_PROCS, ...opts.procs };
  const server = createEmulatorServer<
    EmulatorCounters & { connects: number; posts: number; refused: number }
  >(
    {
      ...opts,
      answers: {
        serverError: {
          status: 503,
          contentType: "text/html",
          body: "<html><body><h1>Service Unavailable</h1></body></html>",
        },
        tooManyRequests: () => "<html><body>Too Many Requests</body></html>",
        lock: {
          status: 500,
          body: {
            ModelType: 0,
            ExceptionMessage:
              "Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.",
            StackTrace: stack("Post"),
          },
        },
        unauthorized: {
          status: 500,
          body: {
            ModelType: 0,
            ExceptionMessage: "Boş akışın serisini kaldırma girişimi.",
            StackTrace: stack("Deserialize"),
          },
        },
      },
    },
    { connects: 0, posts: 0, refused: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const idleMs = opts.sessionIdleMs ?? 20 * 60_000; // IIS default session timeout (inferred)
  const sessions = new Map<string, { last: number; valid: boolean }>();
  const newSessionId = () =>
    randomBytes(12)
      .toString("base64url")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x")
      .slice(0, 24);
  // The runtime rules (judge/rules.ts), playing the session-URL side; each refusal is answered where it
  // happens: IIS's 302 for credentials on a bare URL, the service's error shape for a Post.
  const tenant = createNebimTenant({
    seed,
    productCount: opts.productCount ?? 0,
    now: now(),
    storeCode: user.StoreCode,
    procs,
  });
  const { customers, orders, runProc, post } = tenant;
  const rules = new RuleGate<RecordedRequest, string>(NEBIM_RULES, (v) => v.rule, { side });
  /** Opens an empty session and answers the URL IIS redirects a bare request to. */
  function sessionLocation(path: string): string {
    const id = newSessionId();
    sessions.set(id, { last: now(), valid: false });
    return path.replace(/\/IntegratorService\//, `/(S(${id}))/IntegratorService/`);
  }

  function sessionOf(id: string | undefined): { last: number; valid: boolean } {
    const sess = id ? sessions.get(id) : undefined;
    if (!sess || now() - sess.last > idleMs) {
      if (id) sessions.delete(id);
      // docs/99-errors.md: what a lost session answers.
      throw new NebimFail("Boş akışın serisini kaldırma girişimi.");
    }
    sess.last = now();
    return sess;
  }

  function connect(body: unknown, urlSession?: string): Row {
    counters.connects++;
    const b = (typeof body === "object" && body !== null ? body : {}) as Row;
    const given = ["DatabaseName", "UserGroupCode", "UserName", "Password"].some((k) => s(b[k]) !== "");
    // A login without a body uses the Web.config user (docs/01-1), when there is one; with a body it must
    // match. Either way the answer is "Connection Created Successfully" (docs/01-2): only GetUserInfo tells.
    const valid = given
      ? s(b.DatabaseName) === user.DatabaseName &&
        s(b.UserGroupCode) === user.UserGroupCode &&
        s(b.UserName).toUpperCase() === user.UserName.toUpperCase() &&
        s(b.Password) === user.Password
      : opts.webConfigUser === true;
    // A Connect on a session URL signs that session in (the docs' example answers the URL's SessionID).
    const id =
      mode === "session" ? (urlSession ?? newSessionId()) : randomBytes(16).toString("hex").toUpperCase();
    sessions.set(id, { last: now(), valid });
    return {
      ModelType: 0,
      Status: "Connection Created Successfully",
      StatusCode: 200,
      ...(mode === "session" ? { SessionID: id } : { Token: id }),
    };
  }

  function userInfo(sess: { valid: boolean }): Row {
    // inferred: a session whose login failed carries no user.
    if (!sess.valid)
      return { UserGroupCode: "", UserName: "", DatabaseName: "", LangCode: "TR", IsOfficeUser: false };
    return {
      UserGroupCode: user.UserGroupCode,
      UserName: user.UserName,
      DatabaseName: user.DatabaseName,
      LangCode: "TR",
      DataLangCode: "TR",
      RecordInfo: `${user.UserGroupCode.padEnd(5)}${user.UserName}`,
      IsOfficeUser: true,
      IsStoreUser: false,
      IsWarehouseUser: false,
      CompanyCode: 1,
      OfficeCode: user.OfficeCode,
      StoreCode: "",
      WarehouseCode: "",
    };
  }

  server.app.route({
    method: ["GET", "POST"],
    url: "/*",
    handler: async (req, reply) => {
      const path = req.url.split("?")[0] ?? req.url;
      const parsed = parseNebimPath(path);
      if (!parsed) return reply.code(404).type("text/html").send("<html><body>404 - Not Found</body></html>");
      const { command, session } = parsed;
      const write = command === "Post";
      const procName = command === "RunProc" ? s((req.body as Row | undefined)?.ProcName) : "";
      const operation = write
        ? `Post:${s((req.body as Row | undefined)?.ModelType)}`
        : procName
          ? `RunProc:${procName}`
          : command;
      const gate = await server.gate(req, reply, { kind: write ? "write" : "read", operation });
      if (gate === "handled") return reply;
      if (side === "cookieless-redirect" && !session) {
        // IIS with cookieless sessions: a URL without the session is redirected to one (a new, empty
        // session); what the rules refuse (credentials on the bare URL) is counted on the way.
        const refused = rules.check({
          at: now(),
          method: req.method,
          path,
          query: req.query as Record<string, unknown>,
          headers: req.headers as Record<string, string | undefined>,
          body: req.body,
        });
        return reply
          .code(302)
          .header("location", refused ?? sessionLocation(req.url))
          .send();
      }
      let answer: unknown;
      let http = 200;
      try {
        if (command === "Connect") answer = connect(req.body, session);
        else {
          const tokenHeader = req.headers.token;
          const id = mode === "session" ? session : Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader;
          if (mode === "token" && session) throw new NebimFail("Oturum durumu kapalı: Token kullanın.", 400);
          const sess = sessionOf(id);
          if (command === "GetUserInfo") answer = userInfo(sess);
          else if (command === "Disconnect") {
            if (id) sessions.delete(id);
            answer = { ModelType: 0, Status: "Disconnected", StatusCode: 200 };
          } else {
            if (!sess.valid) throw new NebimFail("Kullanıcı girişi yapılmamış.");
            const body = (req.body ?? {}) as Row;
            if (command === "RunProc") answer = runProc(body);
            else if (command === "Post") {
              counters.posts++;
              const broken = rules.check({
                at: now(),
                method: req.method,
                path,
                query: {},
                headers: req.headers as Record<string, string | undefined>,
                body,
              });
              // inferred wording: V3's refusal of an internet order without its payment.
              if (broken) throw new NebimFail("İnternet satışı siparişinde ödeme bilgisi (Payments) eksik.");
              answer = post(body);
            } else throw new NebimFail(`${command} bu emülatörde yok.`, 404);
          }
        }
      } catch (e) {
        if (!(e instanceof NebimFail)) throw e;
        server.noteOutcome(true);
        if (/Boş akış/.test(e.message)) counters.authFailures++;
        if (write) counters.refused++;
        answer = { ModelType: 0, ExceptionMessage: e.message, StackTrace: stack(command) };
        http = e.http;
      }
      if (gate === "drop") return server.drop(req, reply);
      return reply.code(http).send(answer);
    },
  });

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    systemType: 1,
    credentials: {
      serviceUrl: url,
      connectMode: mode,
      databaseName: user.DatabaseName,
      userGroupCode: user.UserGroupCode,
      userName: user.UserName,
      password: user.Password,
      orderType: "R",
      officeCode: user.OfficeCode,
      storeCode: user.StoreCode,
      warehouseCode: "M01",
      productsProc: procs.products,
      stockProc: procs.stock,
      pricesProc: procs.prices,
      customerProc: procs.customer,
      orderLookupProc: procs.orderLookup,
    },
    customers,
    orders,
    documentsByOrder: tenant.documentsByOrder,
    setStock: tenant.setStock,
    setPrice: tenant.setPrice,
    expireSessions() {
      for (const v of sessions.values()) v.last = -Infinity;
    },
    rules,
    side,
  };
}
