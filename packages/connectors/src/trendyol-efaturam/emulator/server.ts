/**
 * Trendyol e-Faturam emulator on the emulator kit, built from the judge (judge/requests.json): every body is
 * validated against the operation's schema before anything changes (422 `ValidationProblem` with `errors`),
 * answers are RFC 7807 problems where the sources name them (`InvoiceUuidCantBeUsedProblem`,
 * `InvoiceIdAlreadyExistsProblem`, `TaxPayerNotFoundProblem` …). Sign-in answers with the JWT in the
 * `x-access-token` header (claims `privs` {companyId: …} and `userId`, 24 h). A document's status moves
 * 10 → 40 → 205 as it is asked for (inferred pace). Faults from the kit: 5xx, timeouts, 429, dropped writes.
 */

import { createHmac, randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { RuleGate, violationMessages } from "../../testing/runtime-rules";
import { createEmulatorServer, type EmulatorOptions } from "../../testing/server";
import { tinyPdf } from "../../uyumsoft/emulator/state";
import { bodyProblems } from "../judge/requests";
import { trendyolEFaturamRules } from "../judge/rules";

export interface TrendyolEFaturamAccount {
  email: string;
  password: string;
  companyId: number;
  userId: number;
}

export const TRENDYOL_EFATURAM_TEST_ACCOUNT: TrendyolEFaturamAccount = {
  email: "entegrasyon@ornek-magaza.com.tr",
  password: "Test-1234",
  companyId: 41207,
  userId: 88012,
};

export interface TrendyolStoredDocument {
  kind: "earchive" | "outgoing-einvoice";
  uuid: string;
  invoiceId: string;
  body: Record<string, unknown>;
  status: number;
  queries: number;
  createdAt: number;
}

export interface TrendyolEFaturamEmulatorOptions extends EmulatorOptions {
  account?: TrendyolEFaturamAccount;
  /** Tax numbers registered as e-Fatura users. */
  taxpayers?: string[];
  tokenTtlMs?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const problem = (status: number, type: string, detail: string, extra: Obj = {}) => ({
  type: `/problem/${type}`,
  title: type.replace(/Problem$/, ""),
  status,
  detail,
  ...extra,
});

export async function startTrendyolEFaturamEmulator(opts: TrendyolEFaturamEmulatorOptions = {}) {
  const account = opts.account ?? TRENDYOL_EFATURAM_TEST_ACCOUNT;
  const taxpayers = new Set(opts.taxpayers ?? ["1234567890"]);
  const ttl = opts.tokenTtlMs ?? 24 * 3600_000;
  const secret = "trendyol-efaturam-emulator";
  const documents = new Map<string, TrendyolStoredDocument>();
  const numbers = new Set<string>();
  const files = new Map<string, string>();
  const server = createEmulatorServer({
    ...opts,
    answers: {
      serverError: {
        status: 503,
        contentType: "application/problem+json",
        body: problem(503, "connection-error", "Connection to database timed out"),
      },
      tooManyRequests: () => problem(429, "TooManyRequestsProblem", "Too many requests"),
      lock: { status: 409, body: problem(409, "InvoiceOperationRestrictedProblem", "Operation restricted") },
      unauthorized: { status: 401, body: problem(401, "UnauthorizedProblem", "Token expired") },
    },
  });
  const now = server.now;
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const issueToken = () => {
    const head = b64({ alg: "HS256", typ: "JWT" });
    const body = b64({
      sub: String(account.userId),
      userId: account.userId,
      privs: { [String(account.companyId)]: ["INVOICE_WRITE", "INVOICE_READ"] },
      exp: Math.floor((now() + ttl) / 1000),
    });
    const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${sig}`;
  };
  const validToken = (token: unknown): boolean => {
    if (typeof token !== "string") return false;
    const [head, body, sig] = token.split(".");
    if (!head || !body || !sig) return false;
    if (createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url") !== sig) return false;
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { exp: number };
    return claims.exp * 1000 > now();
  };
  const send = (reply: FastifyReply, status: number, body: unknown) => {
    server.noteOutcome(status >= 400);
    return reply
      .code(status)
      .header("content-type", status >= 400 ? "application/problem+json" : "application/json")
      .send(body);
  };
  /** Kit gate + token check; `undefined` = answered already. */
  async function enter(req: FastifyRequest, reply: FastifyReply, operation: string, kind: "read" | "write") {
    const gate = await server.gate(req, reply, { kind, operation });
    if (gate === "handled") return undefined;
    if (!validToken(req.headers["x-access-token"])) {
      server.counters.authFailures++;
      send(reply, 401, problem(401, "UnauthorizedProblem", "Invalid or expired token"));
      return undefined;
    }
    return gate ?? "ok";
  }

  const { app } = server;
  // The runtime rules (judge/rules.ts) refuse before any route: the gateway's validation problem.
  // Sign-in first is enforced more strongly by the token check (a call needs a token a sign-in issued);
  // as a history rule it would forget a day-old sign-in once the gate's bounded history rolls over.
  const gated = trendyolEFaturamRules.filter((r) => r.id !== "trendyol-efaturam.auth.signin-first");
  const rules = new RuleGate<RecordedRequest, unknown>(gated, (v) =>
    problem(422, "ValidationProblem", violationMessages([v]).join("; ")),
  );
  app.addHook("preHandler", async (req, reply) => {
    const refusal = rules.check(recordedFrom(req, server.now()));
    if (refusal) return send(reply, 422, refusal);
    return undefined;
  });
  app.post("/api/auth/signin", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "read", operation: "signin" });
    if (gate === "handled") return reply;
    const problems = bodyProblems("POST", "/api/auth/signin", req.body);
    if (problems.length) return send(reply, 422, problem(422, "ValidationProblem", problems.join("; ")));
    const b = req.body as Obj;
    if (b.email !== account.email || b.password !== account.password) {
      server.counters.authFailures++;
      return send(reply, 401, problem(401, "BadCredentialsProblem", "E-posta veya şifre hatalı"));
    }
    reply.header("x-access-token", issueToken()).header("x-refresh-token", randomUUID());
    return send(reply, 200, {});
  });

  app.get("/api/invoice/taxpayers/:taxId", async (req, reply) => {
    if (!(await enter(req, reply, "taxpayers", "read"))) return reply;
    const { taxId } = req.params as { taxId: string };
    if (!taxpayers.has(taxId))
      return send(reply, 404, problem(404, "TaxPayerNotFoundProblem", `${taxId} e-Fatura mükellefi değil`));
    return send(reply, 200, [
      {
        taxId,
        alias: `urn:mail:defaultpk@${taxId}.com.tr`,
        title: `Mükellef ${taxId}`,
        gibUserType: "OZEL",
        postBoxType: "PK",
        aliasType: "INVOICE",
      },
    ]);
  });

  for (const kind of ["earchive", "outgoing-einvoice"] as const) {
    const path = `/api/invoice/documents/${kind}`;
    const operation = kind === "earchive" ? "createEArchive" : "createOutgoingEInvoice";
    app.post(path, async (req, reply) => {
      const gate = await enter(req, reply, operation, "write");
      if (!gate) return reply;
      const problems = bodyProblems("POST", path, req.body);
      if (problems.length) {
        return send(
          reply,
          422,
          problem(422, "ValidationProblem", "Request validation failed", {
            errors: problems.map((p) => ({ code: "invalid", field: p.split(" ")[0], defaultMessage: p })),
          }),
        );
      }
      const b = req.body as Obj;
      const info = b.invoiceInfo as Obj;
      const recipient = b.recipientInfo as Obj;
      if (b.companyId !== account.companyId || b.userId !== account.userId)
        return send(
          reply,
          409,
          problem(409, "ApplicationMismatchProblem", "companyId/userId token ile uyuşmuyor"),
        );
      if ((info.invoiceType === "EARSIVFATURA") !== (kind === "earchive"))
        return send(
          reply,
          409,
          problem(409, "ScenarioNotValidProblem", `${String(info.invoiceType)} bu uçtan kesilemez`),
        );
      if (kind === "outgoing-einvoice" && !taxpayers.has(String(recipient.taxId)))
        return send(reply, 404, problem(404, "TaxPayerNotFoundProblem", "Alıcı e-Fatura mükellefi değil"));
      if (b.autoInvoiceId === false && typeof info.invoiceId !== "string")
        return send(
          reply,
          409,
          problem(409, "InvoiceIdNotSetProblem", "autoInvoiceId=false ise invoiceId gerekli"),
        );
      if (
        info.invoiceTypeCode === "IADE" &&
        !isObj(b.billingReference) &&
        !Array.isArray(b.billingReferences)
      )
        return send(
          reply,
          422,
          problem(422, "UBLValidationFailedProblem", "İade faturası iade edilen faturayı belirtmeli"),
        );
      const uuid = String(info.invoiceUuid ?? randomUUID()).toLowerCase();
      if (documents.has(uuid))
        return send(reply, 409, problem(409, "InvoiceUuidCantBeUsedProblem", `${uuid} daha önce kullanıldı`));
      const invoiceId = String(info.invoiceId);
      if (numbers.has(invoiceId))
        return send(reply, 409, problem(409, "InvoiceIdAlreadyExistsProblem", `${invoiceId} mevcut`));
      // The gateway builds the UBL: totals that do not add up fail its UBL validation (inferred: 422).
      const lines = b.invoiceLines as Obj[];
      const tax = lines.reduce((s, l) => s + Number(l.taxAmount), 0);
      const net = lines.reduce((s, l) => s + Number(l.taxableAmount), 0);
      const total = b.invoiceTotal as Obj;
      const totalTax = b.totalTax as Obj;
      // inferred, as GİB's portal totals a document: the line extension is the lines before their
      // discounts, and minus the allowance total it is the tax-exclusive amount (GİB's TicariFaturaOrnegi).
      const discounts = lines.reduce((s, l) => s + Number(l.totalDiscountAmount ?? 0), 0);
      if (
        total.lineExtensionAmount !== net + discounts ||
        (total.taxExclusiveAmount !== undefined && total.taxExclusiveAmount !== net) ||
        (total.allowanceTotalAmount !== undefined && total.allowanceTotalAmount !== discounts) ||
        total.payableAmount !== net + tax ||
        totalTax.totalTaxAmount !== tax
      )
        return send(
          reply,
          422,
          problem(422, "UBLValidationFailedProblem", "Fatura toplamları satırlarla uyuşmuyor"),
        );
      const doc: TrendyolStoredDocument = {
        kind,
        uuid,
        invoiceId,
        body: b,
        status: 10,
        queries: 0,
        createdAt: now(),
      };
      documents.set(uuid, doc);
      numbers.add(invoiceId);
      if (gate === "drop") return server.drop(req, reply);
      return send(reply, 200, {
        id: documents.size,
        autoInvoiceId: false,
        currency: (b.currencyInfo as Obj | undefined)?.currency ?? "TRY",
        localReferenceId: b.localReferenceId,
        invoiceUuid: uuid,
        invoiceId,
        prefix: invoiceId.slice(0, 3),
        year: Number(invoiceId.slice(3, 7)),
        rank: Number(invoiceId.slice(7)),
        userId: account.userId,
        source: b.source,
        status: 10,
        ...(kind === "earchive" ? { gibStatus: "READY_TO_BE_REPORTED" } : { gibStatusCode: 0 }),
        taxExcludedPrice: net,
        taxAmount: tax,
        payableAmount: net + tax,
        scenario: info.invoiceType,
        invoiceTypeCode: info.invoiceTypeCode,
        createdAt: new Date(now()).toISOString(),
        lastUpdatedAt: new Date(now()).toISOString(),
      });
    });

    app.get(`${path}/status/:invoiceUuid`, async (req, reply) => {
      if (!(await enter(req, reply, `${kind}Status`, "read"))) return reply;
      const { invoiceUuid } = req.params as { invoiceUuid: string };
      const doc = documents.get(invoiceUuid.toLowerCase());
      if (!doc || doc.kind !== kind)
        return send(reply, 404, problem(404, "InvoiceNotFoundProblem", `${invoiceUuid} bulunamadı`));
      doc.queries++;
      if (doc.status !== 305) doc.status = doc.queries >= 2 ? 205 : 40;
      return send(reply, 200, {
        invoiceUuid: doc.uuid,
        status: doc.status,
        ...(kind === "earchive"
          ? { gibStatus: doc.status === 205 ? "REPORTED" : "READY_TO_BE_REPORTED" }
          : { gibStatusCode: doc.status === 205 ? 1300 : 1100 }),
      });
    });
  }

  app.post("/api/invoice/documents/download", async (req, reply) => {
    if (!(await enter(req, reply, "download", "read"))) return reply;
    const problems = bodyProblems("POST", "/api/invoice/documents/download", req.body);
    if (problems.length) return send(reply, 422, problem(422, "ValidationProblem", problems.join("; ")));
    const b = req.body as Obj;
    const doc = documents.get(String(b.invoiceUuid).toLowerCase());
    const kind = b.documentType === "EARCHIVE" ? "earchive" : "outgoing-einvoice";
    if (!doc || doc.kind !== kind)
      return send(reply, 404, problem(404, "InvoiceNotFoundProblem", "Belge bulunamadı"));
    const name = `${randomUUID()}.${String(b.fileExtension)}`;
    files.set(name, doc.uuid);
    const host = `http://${req.headers.host ?? "127.0.0.1"}`;
    return send(reply, 200, { url: `${host}/signed-files/${name}` });
  });

  app.get("/signed-files/:name", async (req, reply) => {
    const { name } = req.params as { name: string };
    const uuid = files.get(name);
    const doc = uuid ? documents.get(uuid) : undefined;
    if (!doc) return reply.code(403).send("AccessDenied");
    return reply
      .header("content-type", "application/pdf")
      .send(tinyPdf(`Trendyol e-Faturam ${doc.invoiceId}`));
  });

  app.post("/api/invoice/documents/earchive/cancel", async (req, reply) => {
    const gate = await enter(req, reply, "cancelEArchive", "write");
    if (!gate) return reply;
    const problems = bodyProblems("POST", "/api/invoice/documents/earchive/cancel", req.body);
    if (problems.length) return send(reply, 422, problem(422, "ValidationProblem", problems.join("; ")));
    const b = req.body as Obj;
    const doc = documents.get(String(b.invoiceUuid).toLowerCase());
    if (doc?.kind !== "earchive")
      return send(reply, 404, problem(404, "InvoiceNotFoundProblem", "Belge bulunamadı"));
    if (doc.status === 305)
      return send(reply, 409, problem(409, "InvoiceOperationRestrictedProblem", "Fatura iptal edilemez"));
    doc.status = 305;
    if (gate === "drop") return server.drop(req, reply);
    return send(reply, 200, { invoiceUuid: doc.uuid, status: 305 });
  });

  const { url, port } = await server.listen();
  return {
    url,
    port,
    app,
    account,
    documents,
    taxpayers,
    counters: server.counters,
    faults: server.faults,
    recorder: server.recorder,
    rules,
    credentials: { apiUrl: url, email: account.email, password: account.password },
    close: () => server.close(),
  };
}

export type TrendyolEFaturamEmulator = Awaited<ReturnType<typeof startTrendyolEFaturamEmulator>>;
