/**
 * D365 F&O emulator on the emulator kit, built from the judge's entity fixture: an Entra ID v2 token
 * endpoint (client credentials), `GET /data/{EntitySet}` with `cross-company`, `$filter` (read with
 * `@odata/parser`), `$select`, `$top` and server paging (`Prefer: odata.maxpagesize`, `@odata.nextLink` with
 * `$skiptoken`), entity creation (`POST /data/{EntitySet}`) for customers, sales order headers and lines, and
 * `$batch` with change sets (all or nothing). Unknown sets or properties get OData error bodies (400/404),
 * as the real service answers them.
 */

import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { turkishDate } from "../../sdk/turkish-time";
import { bearerToken, TokenStore } from "../../testing/auth";
import type { EmulatorCounters } from "../../testing/faults";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { D365_ENTITIES, isField } from "../judge/entities";
import {
  type BatchAnswer,
  buildBatchAnswer,
  filterFields,
  matches,
  ODataSyntaxError,
  parseBatch,
  parseFilter,
} from "../odata";
import { D365_EMULATOR_HIERARCHY, D365State, type Row } from "./state";

export interface D365EmulatorOptions extends EmulatorOptions {
  productCount?: number;
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  company?: string;
  /** Token lifetime (Entra ID: about an hour). */
  tokenTtlMs?: number;
  /** The service's own largest page. */
  maxPageSize?: number;
}

export type D365EmulatorCredentials = {
  environmentUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  company: string;
  customerGroup: string;
  categoryHierarchy: string;
  tokenUrl: string;
};

export interface D365Emulator extends Emulator<EmulatorCounters & { tokensIssued: number }> {
  credentials: D365EmulatorCredentials;
  state: D365State;
  expireTokens(): void;
  issuedTokens(): string[];
  /** Invoice every order with lines and no invoice yet. */
  invoiceOpenOrders(): number;
  startAutoInvoicing(intervalMs: number): () => void;
}

function odataError(message: string, code = "") {
  return {
    error: { code, message: "An error has occurred.", innererror: { message, type: "", stacktrace: "" } },
  };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startD365Emulator(opts: D365EmulatorOptions = {}): Promise<D365Emulator> {
  const seed = opts.seed ?? 1;
  const tenantId = opts.tenantId ?? "00000000-0000-4000-8000-000000000017";
  const clientId = opts.clientId ?? "d365-emulator-client";
  const clientSecret = opts.clientSecret ?? "d365-emulator-secret-0123456789";
  const company = opts.company ?? "TR01";
  const maxPageSize = opts.maxPageSize ?? 10_000;
  const server = createEmulatorServer<EmulatorCounters & { tokensIssued: number }>(
    {
      ...opts,
      formBodies: true,
      answers: {
        serverError: { status: 500, body: odataError("An unexpected error occurred on the server.") },
        // Priority-based throttling: 429 with Retry-After.
        tooManyRequests: () =>
          odataError("The request was throttled. Retry after the time the Retry-After header names."),
        lock: {
          status: 400,
          body: odataError(
            "Cannot create a record in Sales orders (SalesTable). The record is locked by another transaction (deadlock).",
          ),
        },
        unauthorized: { status: 401, body: "" },
      },
    },
    { tokensIssued: 0 },
  );
  const { counters, now } = server;
  const state = new D365State({ seed, productCount: opts.productCount ?? 0, company, now });
  const tokens = new TokenStore(opts.tokenTtlMs ?? 3_599_000, now);
  let url = opts.baseUrl ?? "";

  server.app.addContentTypeParser("multipart/mixed", { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  server.tokenEndpoint("/:tenant/oauth2/v2.0/token", "oauth2/token", async (b, req, reply) => {
    const tenant = (req.params as { tenant: string }).tenant;
    if (
      b.grant_type !== "client_credentials" ||
      typeof b.scope !== "string" ||
      !b.scope.endsWith("/.default")
    ) {
      counters.errors++;
      return reply
        .code(400)
        .send({ error: "invalid_request", error_description: "AADSTS900144: grant_type / scope" });
    }
    if (tenant !== tenantId || b.client_id !== clientId || b.client_secret !== clientSecret) {
      counters.errors++;
      counters.authFailures++;
      return reply.code(401).send({
        error: "invalid_client",
        error_description: "AADSTS7000215: Invalid client secret provided.",
      });
    }
    const issued = tokens.issue();
    counters.tokensIssued++;
    return reply.send({
      token_type: "Bearer",
      expires_in: issued.expiresIn,
      ext_expires_in: issued.expiresIn,
      access_token: issued.token,
    });
  });

  /** The token check before anything else; false when answered. */
  async function authorised(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (await server.rateLimit(reply)) return false;
    if (tokens.check(bearerToken(req.headers.authorization)) === "ok") return true;
    counters.requests++;
    counters.authFailures++;
    counters.errors++;
    await reply.code(401).send("");
    return false;
  }

  function knownSet(set: string): void {
    if (!D365_ENTITIES.has(set)) throw new HttpError(404, `Resource not found for the segment '${set}'.`);
  }

  function query(set: string, q: Record<string, string>, prefer: string | undefined, rawUrl: string) {
    knownSet(set);
    for (const k of Object.keys(q)) {
      if (k.startsWith("$") && !["$filter", "$select", "$top", "$skip", "$skiptoken"].includes(k)) {
        throw new HttpError(400, `The query parameter '${k}' is not supported.`);
      }
    }
    let rows = state.rows(set);
    // Without cross-company=true the query sees the user's default company only ("DAT": no data here).
    if (D365_ENTITIES.get(set)?.companySpecific && q["cross-company"] !== "true") {
      rows = rows.filter((r) => r.dataAreaId === "DAT");
    }
    if (q.$filter) {
      let f: ReturnType<typeof parseFilter>;
      try {
        f = parseFilter(q.$filter);
      } catch (e) {
        if (e instanceof ODataSyntaxError) throw new HttpError(400, e.message);
        throw e;
      }
      const bad = filterFields(f).find((x) => !isField(set, x));
      if (bad)
        throw new HttpError(
          400,
          `Could not find a property named '${bad}' on type 'Microsoft.Dynamics.DataEntities.${set}'.`,
        );
      rows = rows.filter((r) => matches(f, r));
    }
    const select = q.$select ? q.$select.split(",") : undefined;
    const badSel = select?.find((x) => !isField(set, x));
    if (badSel)
      throw new HttpError(
        400,
        `Could not find a property named '${badSel}' on type 'Microsoft.Dynamics.DataEntities.${set}'.`,
      );
    const skip = Number(q.$skiptoken ?? q.$skip ?? 0) || 0;
    const top = q.$top !== undefined ? Number(q.$top) : undefined;
    const limitRows = top !== undefined ? rows.slice(0, top) : rows;
    const asked = Number(/odata\.maxpagesize=(\d+)/.exec(prefer ?? "")?.[1] ?? maxPageSize);
    const size = Math.max(1, Math.min(maxPageSize, asked));
    const page = limitRows.slice(skip, skip + size);
    const value = page.map((r) =>
      select
        ? Object.fromEntries(select.map((k) => [k, r[k] ?? (k === "dataAreaId" ? r.dataAreaId : "")]))
        : { ...r },
    );
    const body: Record<string, unknown> = { "@odata.context": `${url}/data/$metadata#${set}`, value };
    if (skip + size < limitRows.length) {
      const base = rawUrl.replace(/[?&]\$skiptoken=\d+/, "");
      body["@odata.nextLink"] = `${url}${base}${base.includes("?") ? "&" : "?"}$skiptoken=${skip + size}`;
    }
    return body;
  }

  function ensureKnownBody(set: string, body: unknown): Row {
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new HttpError(400, "The request body is not a JSON object.");
    for (const k of Object.keys(body)) {
      if (!isField(set, k))
        throw new HttpError(
          400,
          `The property '${k}' does not exist on type 'Microsoft.Dynamics.DataEntities.${set}'.`,
        );
    }
    const row = body as Row;
    if (row.dataAreaId !== company)
      throw new HttpError(400, `Company '${String(row.dataAreaId)}' is not valid for this user.`);
    return row;
  }

  /** Validate and build the row a create adds (not yet stored). */
  function prepareCreate(set: string, body: unknown): Row {
    const row = { ...ensureKnownBody(set, body) };
    if (set === "CustomersV3") {
      if (!row.CustomerAccount || !row.CustomerGroupId)
        throw new HttpError(400, "Customer account and customer group must be filled in.");
      if (state.rows(set).some((r) => r.CustomerAccount === row.CustomerAccount)) {
        throw new HttpError(
          400,
          `The record already exists. Customer account ${String(row.CustomerAccount)}.`,
        );
      }
      return row;
    }
    if (set === "SalesOrderHeadersV2") {
      const cust = String(row.OrderingCustomerAccountNumber ?? "");
      if (!state.rows("CustomersV3").some((r) => r.CustomerAccount === cust)) {
        throw new HttpError(400, `Customer account ${cust} does not exist.`);
      }
      return {
        ...row,
        SalesOrderNumber: state.nextOrderNumber(),
        SalesOrderStatus: "Backorder",
        OrderCreationDateTime: new Date(now()).toISOString(),
      };
    }
    if (set === "SalesOrderLines") {
      const no = String(row.SalesOrderNumber ?? "");
      if (!state.rows("SalesOrderHeadersV2").some((r) => r.SalesOrderNumber === no))
        throw new HttpError(400, `Sales order ${no} does not exist.`);
      const item = state.rows("ReleasedProductsV2").find((r) => r.ItemNumber === row.ItemNumber);
      if (!item) throw new HttpError(400, `Item number ${String(row.ItemNumber)} does not exist.`);
      if (item.ProductSubType === "ProductMaster") {
        const ok = state
          .rows("ReleasedProductVariantsV2")
          .some((v) => v.ItemNumber === row.ItemNumber && v.ProductSizeId === (row.ProductSizeId ?? ""));
        if (!ok)
          throw new HttpError(
            400,
            `Product dimensions must be specified for product master ${String(row.ItemNumber)}.`,
          );
      }
      if (!(Number(row.OrderedSalesQuantity) > 0)) throw new HttpError(400, "Quantity must be positive.");
      return { ...row, InventoryLotId: state.nextLotId(), SalesOrderLineStatus: "Backorder" };
    }
    throw new HttpError(405, `The entity set ${set} does not accept creates in this emulator.`);
  }

  function send(reply: FastifyReply, e: unknown) {
    if (e instanceof HttpError) {
      counters.errors++;
      return reply.code(e.status).send(odataError(e.message));
    }
    throw e;
  }

  server.app.get("/data/:set", async (req, reply) => {
    if (!(await authorised(req, reply))) return reply;
    const set = (req.params as { set: string }).set;
    const gate = await server.gate(
      req,
      reply,
      { kind: "read", operation: `GET ${set}` },
      { skipRateLimit: true },
    );
    if (gate === "handled") return reply;
    try {
      const prefer = req.headers.prefer as string | undefined;
      const body = query(set, req.query as Record<string, string>, prefer, req.url);
      if (prefer) reply.header("preference-applied", prefer);
      return reply.send(body);
    } catch (e) {
      return send(reply, e);
    }
  });

  server.app.post("/data/:set", async (req, reply) => {
    if (!(await authorised(req, reply))) return reply;
    const set = (req.params as { set: string }).set;
    if (set === "$batch") return batch(req, reply);
    const gate = await server.gate(
      req,
      reply,
      { kind: "write", operation: `POST ${set}` },
      { skipRateLimit: true },
    );
    if (gate === "handled") return reply;
    try {
      knownSet(set);
      const row = prepareCreate(set, req.body);
      state.rows(set).push(row);
      if (gate === "drop") return server.drop(req, reply);
      return reply.code(201).send({ "@odata.context": `${url}/data/$metadata#${set}/$entity`, ...row });
    } catch (e) {
      return send(reply, e);
    }
  });

  async function batch(req: FastifyRequest, reply: FastifyReply) {
    const gate = await server.gate(
      req,
      reply,
      { kind: "write", operation: "$batch" },
      { skipRateLimit: true },
    );
    if (gate === "handled") return reply;
    const parts =
      typeof req.body === "string" ? parseBatch(req.headers["content-type"], req.body) : undefined;
    if (!parts || parts.length === 0)
      return send(reply, new HttpError(400, "The batch request body is not valid multipart/mixed."));
    // One change set: validate and build every row first; store all or none.
    const prepared: Array<{ set: string; row: Row }> = [];
    let failure: BatchAnswer | undefined;
    for (const p of parts) {
      const m = /^POST (\S+) HTTP\/1\.1$/.exec(p.startLine);
      const set = m
        ? /\/data\/([A-Za-z0-9_]+)$/.exec(new URL(m[1] as string, "http://x").pathname)?.[1]
        : undefined;
      try {
        if (!set) throw new HttpError(400, `Unsupported request in batch: ${p.startLine}`);
        knownSet(set);
        const row = prepareCreate(set, JSON.parse(p.body));
        // Later parts see earlier ones (lines of a header created in the same change set).
        state.rows(set).push(row);
        prepared.push({ set, row });
      } catch (e) {
        failure = {
          status: e instanceof HttpError ? e.status : 400,
          body: odataError(e instanceof Error ? e.message : String(e)),
          contentId: p.mimeHeaders["content-id"],
        };
        break;
      }
    }
    const id = randomUUID();
    if (failure) {
      for (const { set, row } of prepared) {
        const rows = state.rows(set);
        rows.splice(rows.indexOf(row), 1);
      }
      counters.errors++;
      const a = buildBatchAnswer([failure], id, false);
      return reply.code(200).type(a.contentType).send(a.body);
    }
    if (gate === "drop") return server.drop(req, reply);
    const a = buildBatchAnswer(
      prepared.map((p, i) => ({ status: 201, body: p.row, contentId: parts[i]?.mimeHeaders["content-id"] })),
      id,
      true,
    );
    return reply.code(200).type(a.contentType).send(a.body);
  }

  const started = await server.start(opts);
  url = started.url;
  // Invoices are dated with the (Turkish) legal entity's calendar day.
  const today = () => turkishDate(now());
  return {
    ...started,
    credentials: {
      environmentUrl: url,
      tenantId,
      clientId,
      clientSecret,
      company,
      customerGroup: "ETICARET",
      categoryHierarchy: D365_EMULATOR_HIERARCHY,
      tokenUrl: `${url}/${tenantId}/oauth2/v2.0/token`,
    },
    state,
    expireTokens: () => tokens.expireAll(),
    issuedTokens: () => tokens.issued(),
    invoiceOpenOrders: () => state.invoiceOpenOrders(today()),
    startAutoInvoicing: (intervalMs) => server.every(intervalMs, () => state.invoiceOpenOrders(today())),
  };
}
