/**
 * The Dynamics AX 2012 AIF emulator, on the kit: one enhanced integration port (HTTP adapter) exposing
 * the operations of the judge's WSDL. Every envelope is validated with xmllint against the judge's XSDs
 * before anything else (a message WCF could not deserialize changes nothing); the CallContext company
 * must exist; answers are written in the document shapes of the XSDs (and validate against them, checked
 * with `validateResponses`); refusals are SOAP Faults with an AifFault detail. Faults of the kit: 5xx,
 * 429, timeouts, locks and dropped writes (the order is stored, then the connection cut).
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultConfig } from "../../testing/faults";
import type { RecordedRequest } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type EmulatorOptions, type EmulatorServer } from "../../testing/server";
import { type AxOperation, axOperations, loadAxWsdl, validateAxEnvelope } from "../judge/artifact";
import { AX_RULES } from "../judge/rules";
import { ntlmMessage, type2Message, verifyType3, type WindowsAccount } from "./ntlm";
import { AX_TEST_COMPANY, AX_TEST_CUSTOMER, type AxSalesLine, type AxSalesOrder, AxState } from "./state";

export const AX_PORT_PATH = "/MicrosoftDynamicsAXAif60/EntegrasyonPaneli/xppservice.svc";

const NS = {
  services: "http://schemas.microsoft.com/dynamics/2008/01/services",
  ekl: "http://schemas.microsoft.com/dynamics/2006/02/documents/EntityKeyList",
  ek: "http://schemas.microsoft.com/dynamics/2006/02/documents/EntityKey",
  salesOrder: "http://schemas.microsoft.com/dynamics/2008/01/documents/SalesOrder",
  item: "http://schemas.microsoft.com/dynamics/2008/01/documents/Item",
  onHand: "http://schemas.microsoft.com/dynamics/2008/01/documents/InventoryOnHand",
  fault: "http://schemas.microsoft.com/dynamics/2008/01/documents/Fault",
};

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const el = (name: string, value: string | number | undefined) =>
  value === undefined || value === "" ? "" : `<${name}>${esc(String(value))}</${name}>`;

function envelope(inner: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${inner}</s:Body></s:Envelope>`;
}

/** A SOAP 1.1 Fault as WCF writes it, with an AifFault detail when AX has messages. */
export function aifFault(messages: string[], code = "s:Client", operation?: AxOperation): string {
  const detail =
    messages.length === 0
      ? ""
      : `<detail><AifFault xmlns="${NS.fault}" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><CustomDetailXml i:nil="true"/><FaultMessageListArray><FaultMessageList>` +
        `<Document i:nil="true"/><DocumentOperation i:nil="true"/><FaultMessageArray>${messages
          .map((m) => `<FaultMessage><Code>Exception</Code><Message>${esc(m)}</Message></FaultMessage>`)
          .join("")}</FaultMessageArray><Field i:nil="true"/>${el("Service", operation?.service)}${el(
          "ServiceOperation",
          operation?.operation,
        )}<ServiceOperationParameter i:nil="true"/><XPath i:nil="true"/><XmlLine i:nil="true"/><XmlPosition i:nil="true"/></FaultMessageList></FaultMessageListArray></AifFault></detail>`;
  return envelope(
    `<s:Fault><faultcode>${code}</faultcode><faultstring xml:lang="en-US">${esc(
      messages.length > 0 ? "Request Failed. See the Exception Log for details." : "Internal error",
    )}</faultstring>${detail}</s:Fault>`,
  );
}

const keyListXml = (field: string, values: string[]) =>
  `<EntityKeyList xmlns="${NS.ekl}">${values
    .map(
      (v) =>
        `<EntityKey xmlns="${NS.ek}"><KeyData><KeyField><Field>${field}</Field><Value>${esc(v)}</Value></KeyField></KeyData></EntityKey>`,
    )
    .join("")}</EntityKeyList>`;

const response = (op: AxOperation, inner: string) =>
  envelope(
    `<${op.service}${op.operation.charAt(0).toUpperCase()}${op.operation.slice(1)}Response xmlns="${NS.services}">${inner}</${op.service}${op.operation.charAt(0).toUpperCase()}${op.operation.slice(1)}Response>`,
  );

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (isObj(v)) return text(v.$value);
  return String(v);
}
const numberOf = (v: unknown) => Number(text(v) ?? 0);

export interface AxEmulatorOptions extends EmulatorOptions {
  itemCount?: number;
  company?: string;
  /** Validate every answer against the XSDs too; problems are collected in `responseProblems`. */
  validateResponses?: boolean;
  /**
   * Demand Windows authentication (NTLM) as IIS does: a request without it gets 401 with
   * `WWW-Authenticate: Negotiate, NTLM`; Type 1 gets a challenge, Type 3 must answer it on the same
   * connection for this account (NTLMv2), else 401.
   */
  windowsAuth?: WindowsAccount;
}

export interface AxEmulator {
  server: EmulatorServer;
  state: AxState;
  /** Envelopes refused by the XSD check (each answered with a client SOAP Fault). */
  schemaRejections: Array<{ operation: string; errors: string[] }>;
  /** Answers that do not validate (with `validateResponses`): must stay empty. */
  responseProblems: Array<{ operation: string; errors: string[] }>;
  /** Requests let in by a valid NTLM handshake (with `windowsAuth`). */
  windowsLogins: number;
  /** The runtime rules' gate (judge/rules.ts): what it refused, answered as AIF refuses a document. */
  rules: RuleGate<RecordedRequest, string>;
  setFaults(f: FaultConfig): void;
}

interface Answer {
  xml: string;
  ok: boolean;
  status?: number;
}

export async function createAxEmulator(opts: AxEmulatorOptions = {}): Promise<AxEmulator> {
  const state = new AxState({ seed: opts.seed, itemCount: opts.itemCount, company: opts.company });
  const operations = await axOperations();
  const wsdl = (await loadAxWsdl()).wsdl;
  const serverFault = aifFault([], "s:Server");
  const server = createEmulatorServer({
    ...opts,
    answers: {
      serverError: { status: 500, contentType: "text/xml; charset=utf-8", body: serverFault },
      // inferred: IIS in front of the AOS throttles (dynamic IP restrictions) with a plain 429 / 503.
      tooManyRequests: () => "Too Many Requests",
      // A deadlock in the AOS surfaces as a server fault (inferred).
      lock: {
        status: 500,
        body: aifFault(
          [
            "Cannot edit a record in Sales orders (SalesTable). Deadlock, where one or more users have simultaneously locked the whole table or part of it.",
          ],
          "s:Server",
        ),
      },
      // IIS refuses a request without (valid) Windows credentials before the AOS sees it.
      unauthorized: { status: 401, body: "401 - Unauthorized: Access is denied due to invalid credentials." },
    },
  });
  const emu: AxEmulator = {
    server,
    state,
    schemaRejections: [],
    responseProblems: [],
    windowsLogins: 0,
    // inferred wording: AIF validates the document against the schema it generates from the EDTs, so a
    // value over an EDT's String Size is refused as .NET's schema validation words it.
    rules: new RuleGate<RecordedRequest, string>(AX_RULES, (v) =>
      aifFault(
        v.problems.map(
          (p) => `The element is invalid - ${p} - The actual length is greater than the MaxLength value.`,
        ),
        "s:Client",
      ),
    ),
    setFaults: (f) => server.faults.set(f),
  };
  const { app } = server;
  const challenges = new WeakMap<object, Buffer>();
  if (opts.windowsAuth) {
    const account = opts.windowsAuth;
    // Before the kit's hooks: IIS refuses or challenges before the AOS (and its call counters) sees anything.
    app.addHook("onRequest", async (req, reply) => {
      const socket = req.raw.socket;
      const { type, raw } = ntlmMessage(req.headers.authorization);
      if (type === 1) {
        const { header, challenge } = type2Message(account.domain);
        challenges.set(socket, challenge);
        return reply.code(401).header("www-authenticate", header).send("");
      }
      const challenge = challenges.get(socket);
      challenges.delete(socket);
      if (type === 3 && challenge && verifyType3(raw, challenge, account)) {
        emu.windowsLogins++;
        return;
      }
      server.counters.authFailures++;
      return reply
        .code(401)
        .header("www-authenticate", ["Negotiate", "NTLM"])
        .type("text/html")
        .send("401 - Unauthorized: Access is denied due to invalid credentials.");
    });
  }
  app.addContentTypeParser(["text/xml", "application/soap+xml"], { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  const send = (reply: FastifyReply, op: string, xml: string, status = 200) => {
    if (opts.validateResponses) {
      const v = validateAxEnvelope(xml);
      if (!v.valid) emu.responseProblems.push({ operation: op, errors: v.errors });
    }
    return reply.code(status).type("text/xml; charset=utf-8").send(xml);
  };

  app.post(AX_PORT_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const action = String(req.headers.soapaction ?? "").replaceAll('"', "");
    const op = operations.get(action);
    if (!op) {
      return send(
        reply,
        action || "unknown",
        envelope(
          `<s:Fault><faultcode xmlns:a="http://schemas.microsoft.com/ws/2005/05/addressing/none">a:ActionNotSupported</faultcode><faultstring xml:lang="en-US">${esc(
            `The message with Action '${action}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.`,
          )}</faultstring></s:Fault>`,
        ),
        500,
      );
    }
    const gate = await server.gate(req, reply, {
      kind: op.name === "SalesOrderService.create" ? "write" : "read",
      operation: op.name,
    });
    if (gate === "handled") return reply;
    const body = typeof req.body === "string" ? req.body : "";
    const verdict = validateAxEnvelope(body);
    if (!verdict.valid) {
      emu.schemaRejections.push({ operation: op.name, errors: verdict.errors });
      server.noteOutcome(true);
      return send(
        reply,
        op.name,
        aifFault(
          [
            `The formatter threw an exception while trying to deserialize the message: ${verdict.errors.join(" | ")}`,
          ],
          "s:Client",
          op,
        ),
        500,
      );
    }
    const broken = emu.rules.check({
      at: Date.now(),
      method: req.method,
      path: req.url,
      query: {},
      headers: req.headers as Record<string, string | undefined>,
      body,
    });
    if (broken) {
      server.noteOutcome(true);
      return send(reply, op.name, broken, 500);
    }
    const parsed = wsdl.xmlToObject(body) as Obj;
    const ctx = isObj(parsed.Header) && isObj(parsed.Header.CallContext) ? parsed.Header.CallContext : {};
    const company = text(ctx.Company) ?? "";
    // inferred text: AX refuses a call context naming a company the user has no access to.
    if (company.toLowerCase() !== state.company.toLowerCase()) {
      server.noteOutcome(true);
      return send(
        reply,
        op.name,
        aifFault([`Company '${company}' does not exist or the user has no access to it.`], "s:Client", op),
        500,
      );
    }
    const wrapper = Object.values(isObj(parsed.Body) ? parsed.Body : {}).find(isObj) ?? {};
    const answer = handle(state, op, wrapper);
    server.noteOutcome(!answer.ok);
    if (gate === "drop") return server.drop(req, reply);
    return send(reply, op.name, answer.xml, answer.status ?? 200);
  });

  return emu;
}

function criteriaOf(args: Obj): Array<{ ds: string; field: string; op: string; v1: string; v2?: string }> {
  const qc = isObj(args.QueryCriteria) ? args.QueryCriteria : {};
  return list(qc.CriteriaElement)
    .filter(isObj)
    .map((c) => ({
      ds: text(c.DataSourceName) ?? "",
      field: text(c.FieldName) ?? "",
      op: text(c.Operator) ?? "",
      v1: text(c.Value1) ?? "",
      v2: text(c.Value2),
    }));
}

function keysOf(args: Obj, field: string): string[] {
  const kl = isObj(args.EntityKeyList) ? args.EntityKeyList : {};
  const out: string[] = [];
  for (const k of list(kl.EntityKey)) {
    if (!isObj(k) || !isObj(k.KeyData)) continue;
    for (const f of list(k.KeyData.KeyField))
      if (isObj(f) && text(f.Field) === field) out.push(text(f.Value) ?? "");
  }
  return out;
}

function matches(value: string, c: { op: string; v1: string; v2?: string }): boolean {
  switch (c.op) {
    case "Equal":
      return value === c.v1;
    case "NotEqual":
      return value !== c.v1;
    case "Greater":
      return value > c.v1;
    case "GreaterOrEqual":
      return value >= c.v1;
    case "Less":
      return value < c.v1;
    case "LessOrEqual":
      return value <= c.v1;
    case "Range":
      return value >= c.v1 && value <= (c.v2 ?? c.v1);
    default:
      return false;
  }
}

function salesOrderXml(state: AxState, orders: AxSalesOrder[]): string {
  const tables = orders
    .map(
      (o) =>
        `<SalesTable class="entity">${el("CurrencyCode", o.currency)}${el("CustAccount", o.custAccount)}${el(
          "DeliveryName",
          o.deliveryName,
        )}${el("InventLocationId", o.warehouse)}${el("PurchOrderFormNum", o.purchOrderFormNum)}${el("RecId", o.recId)}${el(
          "SalesId",
          o.salesId,
        )}<SalesStatus>Backorder</SalesStatus>${o.lines
          .map(
            (l, i) =>
              `<SalesLine class="entity">${el("ItemId", l.itemId)}${el("LineAmount", l.lineAmount)}${el("LineNum", i + 1)}${el(
                "Name",
                l.name,
              )}${el("SalesId", o.salesId)}${el("SalesPrice", l.price)}${el("SalesQty", l.qty)}${el(
                "SalesUnit",
                state.itemsById.get(l.itemId)?.unit,
              )}${l.warehouse ? `<InventDim class="entity">${el("InventLocationId", l.warehouse)}</InventDim>` : ""}</SalesLine>`,
          )
          .join("")}</SalesTable>`,
    )
    .join("");
  return `<SalesOrder xmlns="${NS.salesOrder}"><DocPurpose>Original</DocPurpose><SenderId>${esc(state.company)}</SenderId>${tables}</SalesOrder>`;
}

function handle(state: AxState, op: AxOperation, args: Obj): Answer {
  const ok = (inner: string): Answer => ({ xml: response(op, inner), ok: true });
  const refuse = (...messages: string[]): Answer => ({
    xml: aifFault(messages, "s:Client", op),
    ok: false,
    status: 500,
  });
  switch (op.name) {
    case "SalesOrderService.findKeys": {
      const criteria = criteriaOf(args);
      const fields = new Set(["SalesId", "PurchOrderFormNum", "CustAccount"]);
      const bad = criteria.find((c) => c.ds !== "SalesTable" || !fields.has(c.field));
      if (bad) return refuse(`Field '${bad.field}' in data source '${bad.ds}' is not valid for the query.`);
      const value = (o: AxSalesOrder, f: string) =>
        f === "SalesId" ? o.salesId : f === "CustAccount" ? o.custAccount : (o.purchOrderFormNum ?? "");
      const found = [...state.orders.values()].filter((o) =>
        criteria.every((c) => matches(value(o, c.field), c)),
      );
      return ok(
        keyListXml(
          "SalesId",
          found.map((o) => o.salesId),
        ),
      );
    }
    case "SalesOrderService.read": {
      const ids = keysOf(args, "SalesId");
      const orders = ids.map((id) => state.orders.get(id));
      if (ids.length === 0 || orders.some((o) => !o))
        return refuse("No valid document identified from the entity key.");
      return ok(salesOrderXml(state, orders as AxSalesOrder[]));
    }
    case "SalesOrderService.create": {
      const doc = isObj(args.SalesOrder) ? args.SalesOrder : {};
      const tables = list(doc.SalesTable).filter(isObj);
      if (tables.length !== 1) return refuse("The document must contain exactly one SalesTable record.");
      const t = tables[0] as Obj;
      const cust = text(t.CustAccount) ?? "";
      const errors: string[] = [];
      if (!cust) errors.push("Field 'Customer account' must be filled in.");
      else if (!state.customers.has(cust))
        errors.push(
          `The value '${cust}' in field 'Customer account' is not found in the relating table 'Customers'.`,
        );
      const warehouse = text(t.InventLocationId);
      const lines: AxSalesLine[] = [];
      for (const l of list(t.SalesLine).filter(isObj)) {
        const itemId = text(l.ItemId) ?? "";
        const item = state.itemsById.get(itemId);
        if (!item)
          errors.push(
            `The value '${itemId}' in field 'Item number' is not found in the relating table 'Items'.`,
          );
        const qty = numberOf(l.SalesQty);
        if (!(qty > 0)) errors.push(`Quantity must be filled in (item '${itemId}').`);
        const dim = list(l.InventDim).find(isObj);
        lines.push({
          itemId,
          qty,
          price: numberOf(l.SalesPrice),
          lineAmount: l.LineAmount !== undefined ? numberOf(l.LineAmount) : numberOf(l.SalesPrice) * qty,
          name: text(l.Name) ?? item?.name ?? itemId,
          warehouse: (dim ? text(dim.InventLocationId) : undefined) ?? warehouse,
        });
      }
      if (lines.length === 0) errors.push("The sales order has no lines.");
      if (errors.length > 0) return refuse(...errors);
      const order = state.createOrder({
        custAccount: cust,
        purchOrderFormNum: text(t.PurchOrderFormNum),
        currency: text(t.CurrencyCode) ?? "TRY",
        deliveryName: text(t.DeliveryName),
        warehouse,
        lines,
      });
      return ok(keyListXml("SalesId", [order.salesId]));
    }
    case "ItemService.findKeys": {
      const criteria = criteriaOf(args);
      const bad = criteria.find((c) => c.ds !== "InventTable" || c.field !== "ItemId");
      if (bad) return refuse(`Field '${bad.field}' in data source '${bad.ds}' is not valid for the query.`);
      const ids = state.items.map((i) => i.sku).filter((id) => criteria.every((c) => matches(id, c)));
      return ok(keyListXml("ItemId", ids));
    }
    case "ItemService.read": {
      const ids = keysOf(args, "ItemId");
      const items = ids.map((id) => state.itemsById.get(id));
      if (ids.length === 0 || items.some((i) => !i))
        return refuse("No valid document identified from the entity key.");
      const tables = items
        .map((i) => {
          if (!i) return "";
          const net = Math.round((i.retailPrice / (1 + i.vatRate / 100)) * 100) / 100;
          return `<InventTable class="entity">${el("ItemId", i.sku)}${el("NameAlias", i.name)}${el("RecId", 5_637_000_000 + Number(i.sku.replace(/\D/g, "")))}<InventTableModule class="entity"><ModuleType>Invent</ModuleType>${el("UnitId", i.unit)}</InventTableModule><InventTableModule class="entity"><ModuleType>Sales</ModuleType>${el("Price", net)}${el("TaxItemGroupId", `KDV${i.vatRate}`)}${el("UnitId", i.unit)}</InventTableModule></InventTable>`;
        })
        .join("");
      return ok(
        `<Item xmlns="${NS.item}"><DocPurpose>Original</DocPurpose><SenderId>${esc(state.company)}</SenderId>${tables}</Item>`,
      );
    }
    case "InventoryOnHandService.read": {
      const ids = keysOf(args, "ItemId");
      if (ids.length === 0) return refuse("No valid document identified from the entity key.");
      const sums = ids
        .map((id) => state.itemsById.get(id))
        .flatMap((i) =>
          i
            ? state
                .onHand(i)
                .map(
                  (s) =>
                    `<InventSum class="entity">${el("AvailPhysical", s.qty)}${el("ItemId", i.sku)}${el("PhysicalInvent", s.qty)}<InventDim class="entity">${el("InventLocationId", s.warehouse)}</InventDim></InventSum>`,
                )
            : [],
        )
        .join("");
      return ok(
        `<InventoryOnHand xmlns="${NS.onHand}"><DocPurpose>Original</DocPurpose><SenderId>${esc(state.company)}</SenderId>${sums}</InventoryOnHand>`,
      );
    }
    default:
      return {
        xml: aifFault([`The action ${op.name} is not exposed by this integration port.`], "s:Server", op),
        ok: false,
        status: 500,
      };
  }
}

/** Start a standalone emulator; `credentials` is what a company's AX connection takes. */
export async function startAxEmulator(opts: AxEmulatorOptions = {}): Promise<
  AxEmulator & {
    url: string;
    endpoint: string;
    systemType: 7;
    credentials: Record<string, string>;
    close: () => Promise<void>;
  }
> {
  const emu = await createAxEmulator(opts);
  const { url } = await emu.server.listen();
  const endpoint = `${url}${AX_PORT_PATH}`;
  // The same object (not a copy): its counters, such as windowsLogins, stay live.
  return Object.assign(emu, {
    url,
    endpoint,
    systemType: 7 as const,
    credentials: {
      endpoint,
      company: emu.state.company,
      customerAccount: AX_TEST_CUSTOMER,
    },
    close: () => emu.server.close(),
  });
}

export { AX_TEST_COMPANY, AX_TEST_CUSTOMER, AxState };
