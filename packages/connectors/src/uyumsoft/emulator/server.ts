/**
 * The Uyumsoft e-Dönüşüm emulator, on the kit: it serves the vendor's WSDL and XSDs (read in place from
 * the ground truth), validates every incoming SOAP envelope against those XSDs with xmllint before it
 * does anything, checks the WS-Security UsernameToken, and answers in the service's shapes (its answers
 * validate against the same XSDs; the contract test checks them). Faults: 5xx as a SOAP Fault, 429,
 * timeouts, token refusal, and a dropped write (stored, then the connection cut).
 */

import { readFileSync } from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";
import { recordedFrom } from "../../testing/recorder";
import { RuleGate, violationMessages } from "../../testing/runtime-rules";
import { createEmulatorServer, type EmulatorOptions, type EmulatorServer } from "../../testing/server";
import { schemaParts, WSDL_PATH } from "../judge/artifact";
import { uyumsoftRules } from "../judge/rules";
import { loadWsdlClient, wsdlOperations } from "../judge/wsdl";
import { validateXml } from "../judge/xmllint";
import { type OutboxInvoice, type UyumsoftAccount, UyumsoftState } from "./state";

export const UYUMSOFT_PATH = "/Services/Integration";

const WRITES = new Set(["SendInvoice", "SaveAsDraft", "CancelEArchiveInvoice"]);

/** `InvoiceStatusInfo/@StatusCode` per status (inferred: the WSDL types it as int and names no values). */
const STATUS_CODE: Record<string, number> = {
  NotPrepared: 0,
  NotSend: 1,
  Draft: 2,
  Canceled: 3,
  Queued: 4,
  Processing: 5,
  SentToGib: 6,
  Approved: 7,
  WaitingForAprovement: 8,
  Declined: 9,
  Return: 10,
  EArchivedCanceled: 11,
  Error: 12,
};

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

function envelope(inner: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${inner}</s:Body></s:Envelope>`;
}

/** A SOAP 1.1 Fault as WCF writes it. */
export function soapFault(code: string, text: string): string {
  return envelope(
    `<s:Fault><faultcode xmlns:a="http://schemas.microsoft.com/ws/2005/05/addressing/none">${esc(code)}</faultcode><faultstring xml:lang="tr-TR">${esc(text)}</faultstring></s:Fault>`,
  );
}

function result(op: string, inner = "", attrs: Record<string, string> = {}, ok = true, message = ""): string {
  const a = Object.entries({ IsSucceded: String(ok), ...(message ? { Message: message } : {}), ...attrs })
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join("");
  return envelope(
    `<${op}Response xmlns="http://tempuri.org/"><${op}Result${a}>${inner}</${op}Result></${op}Response>`,
  );
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
/** Text of a parsed element (a plain value, or `$value` next to attributes). */
function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  // `soap` turns xs:dateTime values into Dates.
  if (v instanceof Date) return v.toISOString();
  if (isObj(v)) return text(v.$value);
  return String(v);
}
const attr = (v: unknown, name: string): string | undefined =>
  isObj(v) && isObj(v.attributes) ? text(v.attributes[name]) : undefined;

export interface UyumsoftEmulatorOptions extends EmulatorOptions {
  account?: UyumsoftAccount;
  /** Validate every answer against the XSDs too; problems are collected in `responseProblems`. */
  validateResponses?: boolean;
  userCount?: number;
}

export interface UyumsoftEmulator {
  server: EmulatorServer;
  state: UyumsoftState;
  /** Envelopes refused by the XSD check (each answered with a client SOAP Fault). */
  schemaRejections: Array<{ operation: string; errors: string[] }>;
  /** Answers of the emulator that do not validate (with `validateResponses`): must stay empty. */
  responseProblems: Array<{ operation: string; errors: string[] }>;
}

/** Build the emulator (not listening): for tests via `startUyumsoftEmulator`, for mounting via `server.app`. */
export async function createUyumsoftEmulator(opts: UyumsoftEmulatorOptions = {}): Promise<UyumsoftEmulator> {
  const state = new UyumsoftState(opts.account, opts.seed ?? 1, opts.userCount);
  const operations = await wsdlOperations();
  const wsdl = (await loadWsdlClient()).wsdl;
  const wsdlText = readFileSync(WSDL_PATH, "utf8");
  const serverFault = soapFault(
    "s:Server",
    "The server was unable to process the request due to an internal error.",
  );
  const server = createEmulatorServer({
    ...opts,
    answers: {
      serverError: { status: 500, contentType: "text/xml; charset=utf-8", body: serverFault },
      // inferred: the service's front end throttles with a plain 429 (no SOAP body documented).
      tooManyRequests: () => "Too Many Requests",
      lock: { status: 503, body: serverFault },
      unauthorized: {
        status: 500,
        body: soapFault("a:InvalidSecurity", "An error occurred when verifying security for the message."),
      },
    },
  });
  const emu: UyumsoftEmulator = { server, state, schemaRejections: [], responseProblems: [] };
  const rules = new RuleGate<ReturnType<typeof recordedFrom>, string>(uyumsoftRules, (v) =>
    violationMessages([v]).join("; "),
  );
  const { app } = server;
  app.addContentTypeParser(["text/xml", "application/soap+xml"], { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  app.get(UYUMSOFT_PATH, async (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    reply.type("text/xml; charset=utf-8");
    if (query.xsd !== undefined) {
      const part = schemaParts().find((p) => p.name === query.xsd);
      if (!part) return reply.code(404).send("");
      return reply.send(readFileSync(part.file, "utf8"));
    }
    return reply.send(wsdlText);
  });

  const send = (reply: FastifyReply, op: string, xml: string, status = 200) => {
    // A Fault is SOAP's own element, outside the service's schemas: only answers are validated.
    if (opts.validateResponses && status === 200) {
      const v = validateXml(xml);
      if (!v.valid) emu.responseProblems.push({ operation: op, errors: v.errors });
    }
    return reply.code(status).type("text/xml; charset=utf-8").send(xml);
  };

  app.post(UYUMSOFT_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const action = String(req.headers.soapaction ?? "").replaceAll('"', "");
    const op = action.slice(action.lastIndexOf("/") + 1);
    const known = operations.get(op);
    const body = typeof req.body === "string" ? req.body : "";
    if (!known || known.soapAction !== action) {
      return send(
        reply,
        op || "unknown",
        soapFault(
          "a:ActionNotSupported",
          `The message with Action '${action}' cannot be processed at the receiver.`,
        ),
        500,
      );
    }
    const gate = await server.gate(req, reply, { kind: WRITES.has(op) ? "write" : "read", operation: op });
    if (gate === "handled") return reply;

    // The XSD check comes first: a message the service could not deserialize changes nothing.
    const verdict = validateXml(body);
    if (!verdict.valid) {
      emu.schemaRejections.push({ operation: op, errors: verdict.errors });
      server.noteOutcome(true);
      return send(
        reply,
        op,
        soapFault(
          "s:Client",
          `The formatter threw an exception while trying to deserialize the message: ${verdict.errors.join(" | ")}`,
        ),
        500,
      );
    }
    const parsed = wsdl.xmlToObject(body) as Obj;
    const security = isObj(parsed.Header) && isObj(parsed.Header.Security) ? parsed.Header.Security : {};
    const token = isObj(security.UsernameToken) ? security.UsernameToken : {};
    if (
      security.Timestamp === undefined ||
      text(token.Username) !== state.account.username ||
      text(token.Password) !== state.account.password
    ) {
      server.counters.authFailures++;
      server.noteOutcome(true);
      return send(
        reply,
        op,
        soapFault("a:InvalidSecurity", "An error occurred when verifying security for the message."),
        500,
      );
    }
    const args = isObj(parsed.Body) && isObj(parsed.Body[op]) ? (parsed.Body[op] as Obj) : {};
    // The runtime rules (judge/rules.ts): refused as the service refuses, inside a 200 answer.
    const broken = rules.check(recordedFrom(req, server.now()));
    if (broken) {
      server.noteOutcome(true);
      return send(reply, op, result(op, "", {}, false, broken));
    }
    const answer = handle(state, op, args);
    server.noteOutcome(!answer.ok);
    if (gate === "drop") return server.drop(req, reply);
    return send(reply, op, answer.xml, answer.status ?? 200);
  });

  return emu;
}

function handle(state: UyumsoftState, op: string, args: Obj): { xml: string; ok: boolean; status?: number } {
  const ok = (xml: string) => ({ xml, ok: true });
  const refuse = (message: string, attrs: Record<string, string> = {}) => ({
    xml: result(op, "", attrs, false, message),
    ok: false,
  });
  switch (op) {
    case "TestConnection":
      return ok(result(op, "", { Value: "true" }));
    case "WhoAmI": {
      const a = state.account;
      return ok(
        result(
          op,
          `<Value><User><Username>${esc(a.username)}</Username><Name>Entegrasyon</Name><Surname>Kullanıcısı</Surname><Email>entegrasyon@example.com.tr</Email></User>` +
            `<Customer><Name>${esc(a.title)}</Name><VkTckNo>${a.vkn}</VkTckNo><TypeEnum>Enterprise</TypeEnum><OwnerTypeEnum>Private</OwnerTypeEnum><Title>${esc(a.title)}</Title><ParentCustomer>0</ParentCustomer><SourceType>0</SourceType><SourceTypeEnum>Default</SourceTypeEnum></Customer></Value>`,
        ),
      );
    }
    case "IsEInvoiceUser":
      return ok(result(op, "", { Value: String(state.isUser(text(args.vknTckn) ?? "")) }));
    case "GetEInvoiceUsers":
    case "FilterEInvoiceUsers": {
      const paging = op === "GetEInvoiceUsers" ? args.pagination : args.context;
      const index = Number(attr(paging, "PageIndex") ?? 0);
      const size = Math.max(1, Number(attr(paging, "PageSize") ?? 20));
      const date = (name: string) => {
        const v = isObj(paging) ? text(paging[name]) : undefined;
        return v ? Date.parse(v) : undefined;
      };
      const from = date("FirstCreateDateBegin");
      const to = date("FirstCreateDateEnd");
      const users = state.users.filter(
        (u) =>
          (from === undefined || Date.parse(u.firstCreated) >= from) &&
          (to === undefined || Date.parse(u.firstCreated) <= to),
      );
      const total = users.length;
      const items = users
        .slice(index * size, index * size + size)
        .map(
          (u) =>
            `<Items Identifier="${u.vkn}" PostboxAlias="${esc(u.alias)}" Title="${esc(u.title)}" Type="Özel" FirstCreateDate="${u.firstCreated}" Enabled="${u.enabled}"/>`,
        )
        .join("");
      return ok(
        result(
          op,
          `<Value PageIndex="${index}" PageSize="${size}" TotalCount="${total}" TotalPages="${Math.ceil(total / size)}">${items}</Value>`,
        ),
      );
    }
    case "SendInvoice":
    case "SaveAsDraft": {
      const infos = list(isObj(args.invoices) ? args.invoices.InvoiceInfo : undefined).filter(isObj);
      if (infos.length === 0) return refuse("Gönderilecek fatura yok.");
      const stored: OutboxInvoice[] = [];
      for (const info of infos) {
        const inv = isObj(info.Invoice) ? info.Invoice : {};
        const ettn = text(inv.UUID);
        if (!ettn) return refuse("Faturada ETTN (UUID) yok.");
        // inferred: a second document with a known ETTN is refused, nothing is stored twice.
        if (state.find(ettn)) return refuse(`${ettn} ETTN numaralı fatura daha önce kaydedilmiş.`);
        const customer = list(
          isObj(inv.AccountingCustomerParty) && isObj(inv.AccountingCustomerParty.Party)
            ? inv.AccountingCustomerParty.Party.PartyIdentification
            : undefined,
        )
          .map((p) => (isObj(p) ? text(p.ID) : undefined))
          .find((id) => id !== undefined);
        const chosen = text(info.Scenario);
        const scenario =
          chosen === "eInvoice" || chosen === "eArchive"
            ? chosen
            : customer && state.isUser(customer)
              ? "eInvoice"
              : "eArchive";
        const id = text(inv.ID);
        stored.push(
          state.store({
            ettn,
            // inferred: a GİB-format number in the document is kept, anything else gets the next number.
            number: id && /^[A-Z0-9]{3}\d{13}$/.test(id) ? id : undefined,
            status: op === "SaveAsDraft" ? "Draft" : "Queued",
            scenario,
            localId: attr(info, "LocalDocumentId"),
          }),
        );
      }
      return ok(
        result(
          op,
          stored
            .map(
              (s) => `<Value Id="${esc(s.ettn)}" Number="${esc(s.number)}" InvoiceScenario="${s.scenario}"/>`,
            )
            .join(""),
        ),
      );
    }
    case "QueryOutboxInvoiceStatus": {
      const ids = list(isObj(args.invoiceIds) ? args.invoiceIds.string : undefined).map(text);
      const values = ids
        .map((id) => (id ? state.find(id) : undefined))
        .filter((inv): inv is OutboxInvoice => inv !== undefined)
        .map(
          (inv) =>
            `<Value Status="${inv.status}" StatusCode="${STATUS_CODE[inv.status] ?? 0}" InvoiceId="${esc(inv.ettn)}"/>`,
        )
        .join("");
      return ok(result(op, values));
    }
    case "GetOutboxInvoicePdf": {
      const inv = state.find(text(args.invoiceId) ?? "");
      if (!inv) return refuse("Fatura bulunamadı.");
      return ok(
        result(op, `<Value InvoiceId="${esc(inv.ettn)}"><Data>${inv.pdf.toString("base64")}</Data></Value>`),
      );
    }
    case "CancelEArchiveInvoice": {
      const inv = state.find(attr(args.request, "InvoiceId") ?? "");
      if (!inv) return refuse("Fatura bulunamadı.", { Value: "false" });
      if (inv.scenario !== "eArchive")
        return refuse("Yalnızca e-Arşiv faturaları iptal edilebilir.", { Value: "false" });
      if (inv.status === "EArchivedCanceled")
        return refuse("Fatura zaten iptal edilmiş.", { Value: "false" });
      inv.status = "EArchivedCanceled";
      inv.cancelDate = attr(args.request, "CancelDate");
      return ok(result(op, "", { Value: "true" }));
    }
    default:
      return {
        xml: soapFault("s:Server", `${op} bu emülatörde yok (WSDL işlemi, bağlayıcı kullanmıyor).`),
        ok: false,
        status: 500,
      };
  }
}

/** Start a standalone emulator; `endpoint` is what the connector's `endpoint` setting takes. */
export async function startUyumsoftEmulator(
  opts: UyumsoftEmulatorOptions = {},
): Promise<UyumsoftEmulator & { url: string; endpoint: string; close: () => Promise<void> }> {
  const emu = await createUyumsoftEmulator(opts);
  const { url } = await emu.server.listen();
  return { ...emu, url, endpoint: `${url}${UYUMSOFT_PATH}`, close: () => emu.server.close() };
}
