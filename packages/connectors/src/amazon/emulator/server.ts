/**
 * Amazon SP-API emulator on the kit, built from the judge: every request is judged against Amazon's own
 * models (judge/openapi.ts, read in place) and gated by the runtime rules (judge/rules.ts), so what the
 * SP-API refuses is refused here in its shapes — 400 `{ errors: [{ code: "InvalidInput", … }] }`, 403
 * `Unauthorized` for a missing or expired access token, 429 `QuotaExceeded` over an operation's usage plan
 * (a token bucket; `x-amzn-RateLimit-Limit` on every answer), a removed XML feed type processed as FATAL.
 * LWA (`/auth/o2/token`), Orders v2026-01-01 + confirmShipment, Feeds 2021-06-30 with presigned upload and
 * download URLs, Listings Items (putListingsItem against each product type's schema: emulator/listing.ts)
 * and Product Type Definitions. Feeds are processed when created and report
 * DONE after `feedDelayMs`, with a processing report (gzip) valid against Amazon's report schema.
 */

import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { TokenStore } from "../../testing/auth";
import { generateCatalog, generateCustomer } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { decodeCursor, encodeCursor } from "../../testing/paging";
import { Prng } from "../../testing/prng";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { AMAZON_TR_MARKETPLACE, AMAZON_USAGE_PLANS } from "../descriptor";
import { type AmazonJudge, amazonJudge } from "../judge/openapi";
import { AMAZON_RETURNS_COLUMNS, AMAZON_RETURNS_REPORT_TYPE } from "../judge/returns-report";
import { amazonRules, ruleOperation } from "../judge/rules";
import { PRODUCT_TYPES, registerListingRoutes } from "./listing";

type Row = Record<string, unknown>;

export interface AmazonEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  sellerId?: string;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  /** When a created feed reports DONE (Amazon: minutes). */
  feedDelayMs?: number;
  /** When a requested returns report is made (Amazon: minutes). */
  reportDelayMs?: number;
  /** Usage plan rates multiplied (tests): advertised in x-amzn-RateLimit-Limit and enforced. */
  rateScale?: number;
  /** The JSON_LISTINGS_FEED five-per-five-minutes window, scaled by tests. */
  feedWindowMs?: number;
  /** Access token lifetime (LWA: 3,600 s). */
  tokenTtlMs?: number;
  judge?: AmazonJudge;
}

export interface AmazonCounters extends EmulatorCounters {
  rejected: number;
  refusedByRules: number;
  feeds: number;
  stockItems: number;
  priceItems: number;
  shipments: number;
}

export interface AmazonEmulator extends Emulator<AmazonCounters> {
  credentials: {
    sellerId: string;
    clientId: string;
    clientSecret: string;
    refreshToken: string;
    marketplaceId: string;
    apiUrl: string;
    tokenUrl: string;
  };
  listings: Row[];
  orders: Row[];
  feeds: Map<string, Row>;
  /** Problems the judge found in the emulator's own answers (a test asserts none). */
  answerProblems: string[];
  generateOrders(n: number): Row[];
  cancelOrder(orderId: string): void;
  /**
   * The buyer returns units of an order (every unit, or `units`: SKU → units), approved now: one row per
   * line in the returns report (judge/returns-report.ts), under one RMA.
   */
  returnOrder(orderId: string, units?: Record<string, number>): void;
  /** Returns reports requested (createReport). */
  returnReports: Map<string, Row>;
  expireTokens(): void;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  rules: RuleGate<RecordedRequest, { status: number; body: unknown }>;
}

const spError = (code: string, message: string, details?: string) => ({
  errors: [{ code, message, ...(details ? { details } : {}) }],
});
const money = (n: number) => ({ amount: (Math.round(n * 100) / 100).toFixed(2), currencyCode: "TRY" });

export async function startAmazonEmulator(opts: AmazonEmulatorOptions = {}): Promise<AmazonEmulator> {
  const judge = opts.judge ?? amazonJudge();
  const sellerId = opts.sellerId ?? "A2EPEMULATOR1";
  const clientId = opts.clientId ?? "amzn1.application-oa2-client.emulator";
  const clientSecret = opts.clientSecret ?? "amzn1.oa2-cs.v1.emulator-secret";
  const refreshToken = opts.refreshToken ?? "Atzr|emulator-refresh-token";
  const scale = opts.rateScale ?? 1;
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<AmazonCounters>(
    {
      ...opts,
      rateLimit: false,
      formBodies: true,
      answers: {
        serverError: {
          status: 500,
          body: spError("InternalFailure", "We encountered an internal error. Please try again."),
        },
        tooManyRequests: () =>
          spError("QuotaExceeded", "You exceeded your quota for the requested resource."),
        lock: { status: 503, body: spError("ServiceUnavailable", "Service temporarily unavailable.") },
        unauthorized: {
          status: 403,
          body: spError(
            "Unauthorized",
            "Access to requested resource is denied.",
            "The access token you provided has expired.",
          ),
        },
      },
    },
    { rejected: 0, refusedByRules: 0, feeds: 0, stockItems: 0, priceItems: 0, shipments: 0 },
  );
  const { counters, now, app } = server;
  const rng = new Prng(`${seed}:amazon`);
  const tokens = new TokenStore(opts.tokenTtlMs ?? 3_600_000, now);
  const answerProblems: string[] = [];
  const rules = new RuleGate(amazonRules({ rateScale: scale, feedWindowMs: opts.feedWindowMs }), (v) => {
    if (v.rule === "amazon.usage-plan" || v.rule === "amazon.listings-feed-5-per-5-min")
      return {
        status: 429,
        body: spError("QuotaExceeded", "You exceeded your quota for the requested resource."),
      };
    if (v.rule === "amazon.access-token")
      return {
        status: 403,
        body: spError(
          "Unauthorized",
          "Access to requested resource is denied.",
          "The request has an invalid grant parameter : access token",
        ),
      };
    if (v.rule === "amazon.xml-feeds-removed") return { status: 0, body: v.problems.join("; ") };
    if (v.rule === "amazon.orders-v0-reads-deprecated")
      return { status: 404, body: spError("NotFound", "Resource not found", v.problems.join("; ")) };
    return { status: 400, body: spError("InvalidInput", v.problems.join("; ")) };
  });

  // Listings: the seeded catalogue, one offer each on Amazon.com.tr.
  const listings: Row[] = generateCatalog({ seed, count: opts.productCount ?? 0 }).map((item, i) => {
    const pt =
      PRODUCT_TYPES[(item.categoryRoot.length + item.categoryChild.length) % PRODUCT_TYPES.length] ??
      PRODUCT_TYPES[0];
    return {
      sku: item.sku,
      asin: `B0${String(1_000_000 + i).padStart(8, "0")}`,
      productType: pt?.[0] ?? "HOME",
      itemName: item.name,
      ean: item.barcode,
      quantity: item.stock1,
      price: item.retailPrice,
      createdDate: new Date(item.updatedAt).toISOString(),
      lastUpdatedDate: new Date(item.updatedAt).toISOString(),
    };
  });
  const bySku = new Map(listings.map((l) => [String(l.sku), l]));

  // Orders (v2026-01-01 shape).
  const orders: Row[] = [];
  let orderSeq = 0;
  let itemSeq = 10_000_000_000_000;
  const touch = (o: Row) => {
    o.lastUpdatedTime = new Date(now()).toISOString();
  };
  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n && listings.length > 0; i++) {
      orderSeq++;
      const c = generateCustomer(rng, orderSeq);
      const orderId = `40${rng.int(1, 9)}-${String(rng.int(1_000_000, 9_999_999))}-${String(rng.int(1_000_000, 9_999_999))}`;
      const orderItems = Array.from({ length: rng.int(1, 3) }, () => {
        const l = rng.pick(listings);
        const qty = rng.int(1, 2);
        return {
          orderItemId: String(++itemSeq),
          quantityOrdered: qty,
          product: {
            asin: l.asin,
            title: l.itemName,
            sellerSku: l.sku,
            price: { unitPrice: money(Number(l.price)) },
          },
          proceeds: { proceedsTotal: money(Number(l.price) * qty) },
          fulfillment: { quantityFulfilled: 0, quantityUnfulfilled: qty },
        };
      });
      const grand = orderItems.reduce((s, it) => s + Number(it.proceeds.proceedsTotal.amount), 0);
      const at = new Date(now()).toISOString();
      const o: Row = {
        orderId,
        createdTime: at,
        lastUpdatedTime: at,
        salesChannel: {
          channelName: "Amazon.com.tr",
          marketplaceId: AMAZON_TR_MARKETPLACE,
          marketplaceName: "Amazon.com.tr",
        },
        buyer: {
          buyerName: `${c.firstName} ${c.lastName}`,
          buyerEmail: `${orderId.replace(/-/g, "")}@marketplace.amazon.com.tr`,
          ...(c.companyName ? { buyerCompanyName: c.companyName } : {}),
        },
        recipient: {
          deliveryAddress: {
            name: `${c.firstName} ${c.lastName}`,
            addressLine1: c.address.line1,
            city: c.address.city,
            districtOrCounty: c.address.district,
            postalCode: c.address.postalCode,
            countryCode: "TR",
            phone: c.phone,
          },
        },
        fulfillment: {
          fulfillmentStatus: "UNSHIPPED",
          fulfilledBy: "MERCHANT",
          fulfillmentServiceLevel: "Standard",
        },
        proceeds: { grandTotal: money(grand) },
        orderItems,
        packages: [],
      };
      orders.push(o);
      out.push(o);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  const documents = new Map<
    string,
    { contentType: string; content?: unknown; bytes?: Buffer; compression?: string }
  >();
  const feeds = new Map<string, Row>();
  const reports = new Map<string, Row>();
  let docSeq = 0;
  let feedSeq = 50_000_000_000;
  let base = "";
  const clock = () => new Date(now()).toISOString();

  /** The answer's rate header for an operation, at the emulator's scale. */
  const rateOf = (op: string | undefined) => {
    const plan = op ? AMAZON_USAGE_PLANS[op] : undefined;
    return plan ? String(plan.rate * scale) : undefined;
  };
  // Feed documents of any content type reach the presigned URL as text (XML feeds included).
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
  app.addHook("onSend", async (req, reply, payload) => {
    const rate = rateOf(ruleOperation(req.method, req.url.split("?")[0] ?? ""));
    if (rate) reply.header("x-amzn-RateLimit-Limit", rate);
    return payload;
  });

  /** Token, rules, judge, then the kit's gate (count, latency, injected fault). */
  async function handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => { status?: number; body: unknown } | undefined,
  ): Promise<unknown> {
    const recorded = recordedFrom(req, now());
    const verdict = judge.judgeRequest(recorded);
    const operation = verdict.operation;
    const token = String(req.headers["x-amz-access-token"] ?? "").replace(/^Atza\|/, "");
    const state = tokens.check(token || undefined);
    if (state !== "ok") {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      return reply
        .code(403)
        .send(
          spError(
            "Unauthorized",
            "Access to requested resource is denied.",
            state === "expired"
              ? "The access token you provided has expired."
              : "Access token is missing in the request header.",
          ),
        );
    }
    const refusal = rules.check(recorded);
    if (refusal && refusal.status !== 0) {
      counters.requests++;
      counters.refusedByRules++;
      counters.errors++;
      if (refusal.status === 429) counters.rateLimitViolations++;
      return reply.code(refusal.status).send(refusal.body);
    }
    const gate = await server.gate(req, reply, { kind, operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    if (verdict.problems.length > 0) {
      counters.rejected++;
      return reply
        .code(verdict.problems.includes("unknown operation") ? 404 : 400)
        .send(spError("InvalidInput", verdict.problems.join("; ")));
    }
    const out = answer() ?? { status: 404, body: spError("NotFound", "Resource not found") };
    if (gate === "drop") return server.drop(req, reply);
    const status = out.status ?? 200;
    if (status < 300 || status === 404) {
      const problems = judge.judgeAnswer(operation, status, out.body);
      if (problems.length > 0) answerProblems.push(`${operation} ${status}: ${problems.join("; ")}`);
    }
    return reply.code(status).send(out.body);
  }
  const Q = (req: FastifyRequest) => req.query as Record<string, string>;
  const P = (req: FastifyRequest) => req.params as Record<string, string>;
  const csv = (v: string | undefined) => (v ? v.split(",") : []);

  // LWA: refresh-token grant.
  server.tokenEndpoint("/auth/o2/token", "lwaToken", (body, _req, reply) => {
    if (body.grant_type !== "refresh_token")
      return reply
        .code(400)
        .send({ error: "unsupported_grant_type", error_description: "Grant type not supported" });
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return reply
        .code(401)
        .send({ error: "invalid_client", error_description: "Client authentication failed" });
    if (body.refresh_token !== refreshToken)
      return reply.code(400).send({
        error: "invalid_grant",
        error_description: "The request has an invalid grant parameter : refresh_token",
      });
    const t = tokens.issue();
    return {
      access_token: `Atza|${t.token}`,
      token_type: "bearer",
      expires_in: t.expiresIn,
      refresh_token: refreshToken,
    };
  });

  // Orders v2026-01-01.
  const view = (o: Row, included: string[]) => {
    const v: Row = { ...o };
    if (!included.includes("BUYER")) delete v.buyer;
    if (!included.includes("RECIPIENT")) delete v.recipient;
    if (!included.includes("PROCEEDS")) delete v.proceeds;
    if (!included.includes("FULFILLMENT")) delete v.fulfillment;
    if (!included.includes("PACKAGES")) delete v.packages;
    return v;
  };
  app.get("/orders/2026-01-01/orders", (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const after = Date.parse(q.lastUpdatedAfter ?? q.createdAfter ?? "1970-01-01T00:00:00Z");
      const before = q.lastUpdatedBefore ? Date.parse(q.lastUpdatedBefore) : now() - 120_000;
      const field = q.createdAfter ? "createdTime" : "lastUpdatedTime";
      const list = orders
        .filter((o) => {
          const t = Date.parse(String(o[field]));
          return t >= after && t <= before;
        })
        .sort((a, b) => String(a.lastUpdatedTime).localeCompare(String(b.lastUpdatedTime)));
      const size = Number(q.maxResultsPerPage ?? 100);
      const offset = decodeCursor<number>(q.paginationToken) ?? 0;
      const page = list.slice(offset, offset + size).map((o) => view(o, csv(q.includedData)));
      const more = offset + size < list.length;
      return {
        body: {
          orders: page,
          ...(more ? { pagination: { nextToken: encodeCursor(offset + size) } } : {}),
          lastUpdatedBefore: new Date(before).toISOString(),
        },
      };
    }),
  );
  const orderOf = (id: string) => orders.find((o) => o.orderId === id);
  app.get("/orders/2026-01-01/orders/:orderId", (req, reply) =>
    handle(req, reply, "read", () => {
      const o = orderOf(P(req).orderId ?? "");
      return o ? { body: { order: view(o, csv(Q(req).includedData)) } } : undefined;
    }),
  );
  app.post("/orders/v0/orders/:orderId/shipmentConfirmation", (req, reply) =>
    handle(req, reply, "write", () => {
      const o = orderOf(P(req).orderId ?? "");
      if (!o) return undefined;
      const d = (req.body as Row).packageDetail as Row;
      const own = new Map(
        (o.orderItems as Row[]).map((i) => [String(i.orderItemId), Number(i.quantityOrdered)]),
      );
      for (const it of d.orderItems as Row[])
        if (!own.has(String(it.orderItemId)))
          return {
            status: 400,
            body: spError("InvalidInput", `orderItemId ${String(it.orderItemId)} is not in the order`),
          };
      const f = o.fulfillment as Row;
      if (f.fulfillmentStatus === "CANCELLED")
        return { status: 400, body: spError("InvalidInput", "The order is cancelled") };
      f.fulfillmentStatus = "SHIPPED";
      o.packages = [
        {
          packageReferenceId: String(d.packageReferenceId),
          createdTime: clock(),
          packageStatus: { status: "SHIPPED" },
          carrier: String(d.carrierName ?? d.carrierCode),
          shipTime: String(d.shipDate),
          trackingNumber: String(d.trackingNumber),
          packageItems: (d.orderItems as Row[]).map((i) => ({
            orderItemId: String(i.orderItemId),
            quantity: Number(i.quantity),
          })),
        },
      ];
      counters.shipments++;
      touch(o);
      return { status: 204, body: undefined };
    }),
  );

  // Feeds 2021-06-30.
  app.post("/feeds/2021-06-30/documents", (req, reply) =>
    handle(req, reply, "write", () => {
      const id = `amzn1.tortuga.4.eu.${(++docSeq).toString(16).padStart(8, "0")}`;
      documents.set(id, { contentType: String((req.body as Row).contentType) });
      return {
        status: 201,
        body: { feedDocumentId: id, url: `${base}/feed-uploads/${encodeURIComponent(id)}` },
      };
    }),
  );
  // The presigned URL (S3 in production): no access token; the content type must be the one declared.
  app.put("/feed-uploads/:id", async (req, reply) => {
    const recorded = recordedFrom(req, now());
    const refusal = rules.check(recorded);
    const doc = documents.get(P(req).id ?? "");
    if (!doc) return reply.code(403).send("<Error><Code>AccessDenied</Code></Error>");
    if (refusal) return reply.code(403).send("<Error><Code>SignatureDoesNotMatch</Code></Error>");
    doc.content = req.body;
    return reply.code(200).send("");
  });
  app.get("/feed-downloads/:id", async (req, reply) => {
    const doc = documents.get(P(req).id ?? "");
    if (!doc?.bytes) return reply.code(403).send("<Error><Code>AccessDenied</Code></Error>");
    return reply.header("content-type", "application/octet-stream").send(doc.bytes);
  });

  /** Processes a feed document now (the report is shown once the feed reports DONE). */
  function processFeed(feedId: string, inputId: string, removed: string | undefined): Row {
    const content = documents.get(inputId)?.content;
    const issues: Row[] = [];
    let accepted = 0;
    let invalid = 0;
    const messages = ((content as Row | undefined)?.messages as Row[] | undefined) ?? [];
    const schemaProblems = removed ? [removed] : judge.feedProblems(content);
    if (schemaProblems.length > 0) {
      issues.push({ code: "4000004", severity: "ERROR", message: schemaProblems.join("; ").slice(0, 1000) });
    } else {
      for (const m of messages) {
        const l = bySku.get(String(m.sku));
        const problem = !l
          ? `SKU '${String(m.sku)}' not found for this seller in marketplace ${AMAZON_TR_MARKETPLACE}`
          : m.productType !== l.productType
            ? `The provided product type '${String(m.productType)}' does not match the product type '${String(l.productType)}' of the listing`
            : undefined;
        if (problem || !l) {
          invalid++;
          issues.push({
            messageId: m.messageId,
            sku: m.sku,
            code: "4000001",
            severity: "ERROR",
            message: problem,
          });
          continue;
        }
        for (const p of (m.patches as Row[] | undefined) ?? []) {
          const value = ((p.value as Row[] | undefined) ?? [])[0] ?? {};
          if (p.path === "/attributes/fulfillment_availability") {
            l.quantity = Number(value.quantity);
            counters.stockItems++;
          } else if (p.path === "/attributes/purchasable_offer") {
            const price = ((
              (value.our_price as Row[] | undefined)?.[0]?.schedule as Row[] | undefined
            )?.[0] ?? {}) as Row;
            l.price = Number(price.value_with_tax);
            counters.priceItems++;
          }
        }
        l.lastUpdatedDate = clock();
        accepted++;
      }
    }
    const fatal = schemaProblems.length > 0;
    const report: Row = {
      header: { sellerId, version: "2.0", feedId },
      issues,
      summary: {
        errors: issues.length,
        warnings: 0,
        messagesProcessed: fatal ? 0 : messages.length,
        messagesAccepted: accepted,
        messagesInvalid: invalid,
      },
    };
    if (!judge.reportSchema(report))
      answerProblems.push(`report: ${JSON.stringify(judge.reportSchema.errors).slice(0, 300)}`);
    return { report, fatal };
  }

  app.post("/feeds/2021-06-30/feeds", (req, reply) => {
    const recorded = recordedFrom(req, now());
    return handle(req, reply, "write", () => {
      const b = req.body as Row;
      const inputId = String(b.inputFeedDocumentId);
      if (!documents.get(inputId)?.content)
        return { status: 400, body: spError("InvalidInput", "The feed document was not uploaded") };
      const feedId = String(++feedSeq);
      // A removed feed type is accepted and then processed as FATAL (the feed type values page).
      const removed = amazonRules()
        .find((r) => r.id === "amazon.xml-feeds-removed")
        ?.check(recorded, [])[0];
      const { report, fatal } = processFeed(feedId, inputId, removed) as { report: Row; fatal: boolean };
      const resultId = `amzn1.tortuga.4.eu.result.${feedId}`;
      reports.set(feedId, report);
      documents.set(resultId, {
        contentType: "application/json",
        bytes: gzipSync(Buffer.from(JSON.stringify(report))),
        compression: "GZIP",
      });
      feeds.set(feedId, {
        feedId,
        feedType: String(b.feedType),
        marketplaceIds: b.marketplaceIds,
        createdTime: clock(),
        readyAt: now() + (opts.feedDelayMs ?? 0),
        final: fatal ? "FATAL" : "DONE",
        resultFeedDocumentId: resultId,
      });
      counters.feeds++;
      return { status: 202, body: { feedId } };
    });
  });
  app.get("/feeds/2021-06-30/feeds/:feedId", (req, reply) =>
    handle(req, reply, "read", () => {
      const f = feeds.get(P(req).feedId ?? "");
      if (!f) return undefined;
      const ready = now() >= Number(f.readyAt);
      return {
        body: {
          feedId: f.feedId,
          feedType: f.feedType,
          marketplaceIds: f.marketplaceIds,
          createdTime: f.createdTime,
          processingStatus: ready ? f.final : "IN_PROGRESS",
          processingStartTime: f.createdTime,
          ...(ready ? { processingEndTime: clock(), resultFeedDocumentId: f.resultFeedDocumentId } : {}),
        },
      };
    }),
  );
  /** A stored document's presigned download (feeds' and reports' alike, each under its own id name). */
  const documentAnswer = (idName: "feedDocumentId" | "reportDocumentId", id: string) => {
    const d = documents.get(id);
    if (!d?.bytes) return undefined;
    return {
      body: {
        [idName]: id,
        url: `${base}/feed-downloads/${encodeURIComponent(id)}`,
        ...(d.compression ? { compressionAlgorithm: d.compression } : {}),
      },
    };
  };
  app.get("/feeds/2021-06-30/documents/:id", (req, reply) =>
    handle(req, reply, "read", () => documentAnswer("feedDocumentId", P(req).id ?? "")),
  );

  // Reports 2021-06-30: the returns report only (judge/returns-report.ts); its rows from `returnOrder`.
  const returnRows: Row[] = [];
  const returnReports = new Map<string, Row>();
  let reportSeq = 60_000_000_000;
  const returnsDocument = (from: number, to: number) => {
    const rows = returnRows.filter((r) => {
      const at = Date.parse(String(r["Return request date"]));
      return at >= from && at <= to;
    });
    const cell = (v: unknown) => String(v ?? "").replace(/[\t\n]/g, " ");
    const lines = [
      AMAZON_RETURNS_COLUMNS.join("\t"),
      ...rows.map((r) => AMAZON_RETURNS_COLUMNS.map((c) => cell(r[c])).join("\t")),
    ];
    return { rows: rows.length, text: `${lines.join("\n")}\n` };
  };
  app.post("/reports/2021-06-30/reports", (req, reply) =>
    handle(req, reply, "write", () => {
      const b = req.body as Row;
      if (b.reportType !== AMAZON_RETURNS_REPORT_TYPE)
        return {
          status: 400,
          body: spError("InvalidInput", `Report type not served here: ${String(b.reportType)}`),
        };
      const from = Date.parse(String(b.dataStartTime ?? clock()));
      const to = Date.parse(String(b.dataEndTime ?? clock()));
      const reportId = String(++reportSeq);
      returnReports.set(reportId, {
        reportId,
        reportType: b.reportType,
        marketplaceIds: b.marketplaceIds,
        dataStartTime: new Date(from).toISOString(),
        dataEndTime: new Date(to).toISOString(),
        createdTime: clock(),
        readyAt: now() + (opts.reportDelayMs ?? 0),
      });
      return { status: 202, body: { reportId } };
    }),
  );
  app.get("/reports/2021-06-30/reports/:reportId", (req, reply) =>
    handle(req, reply, "read", () => {
      const r = returnReports.get(P(req).reportId ?? "");
      if (!r) return undefined;
      const { readyAt, documentId, ...shown } = r;
      if (now() < Number(readyAt)) return { body: { ...shown, processingStatus: "IN_QUEUE" } };
      let id = documentId as string | undefined;
      if (id === undefined) {
        const doc = returnsDocument(Date.parse(String(r.dataStartTime)), Date.parse(String(r.dataEndTime)));
        // A report with no data is CANCELLED, without a document (the Reports FAQ).
        id = doc.rows === 0 ? "" : `amzn1.spdoc.1.4.eu.${r.reportId}`;
        if (id)
          documents.set(id, {
            contentType: "text/tab-separated-values",
            bytes: gzipSync(Buffer.from(doc.text)),
            compression: "GZIP",
          });
        r.documentId = id;
      }
      return {
        body: {
          ...shown,
          processingStatus: id ? "DONE" : "CANCELLED",
          processingStartTime: r.createdTime,
          processingEndTime: clock(),
          ...(id ? { reportDocumentId: id } : {}),
        },
      };
    }),
  );
  app.get("/reports/2021-06-30/documents/:id", (req, reply) =>
    handle(req, reply, "read", () => documentAnswer("reportDocumentId", P(req).id ?? "")),
  );

  // Listings Items 2021-08-01.
  const item = (l: Row, included: string[]) => ({
    sku: l.sku,
    ...(included.includes("summaries")
      ? {
          summaries: [
            {
              marketplaceId: AMAZON_TR_MARKETPLACE,
              asin: l.asin,
              productType: l.productType,
              conditionType: "new_new",
              status: ["BUYABLE", "DISCOVERABLE"],
              itemName: l.itemName,
              createdDate: l.createdDate,
              lastUpdatedDate: l.lastUpdatedDate,
            },
          ],
        }
      : {}),
    ...(included.includes("fulfillmentAvailability")
      ? { fulfillmentAvailability: [{ fulfillmentChannelCode: "DEFAULT", quantity: Number(l.quantity) }] }
      : {}),
  });
  app.get("/listings/2021-08-01/items/:sellerId", (req, reply) =>
    handle(req, reply, "read", () => {
      if (P(req).sellerId !== sellerId)
        return { status: 403, body: spError("Unauthorized", "Access to requested resource is denied.") };
      const q = Q(req);
      const ids = csv(q.identifiers);
      const list =
        ids.length > 0 ? ids.flatMap((s) => (bySku.has(s) ? [bySku.get(s) as Row] : [])) : listings;
      const size = Number(q.pageSize ?? 10);
      const offset = decodeCursor<number>(q.pageToken) ?? 0;
      const more = offset + size < list.length;
      const included = q.includedData ? csv(q.includedData) : ["summaries"];
      return {
        body: {
          numberOfResults: list.length,
          ...(more ? { pagination: { nextToken: encodeCursor(offset + size) } } : {}),
          items: list.slice(offset, offset + size).map((l) => item(l, included)),
        },
      };
    }),
  );
  app.get("/listings/2021-08-01/items/:sellerId/:sku", (req, reply) =>
    handle(req, reply, "read", () => {
      const l = bySku.get(P(req).sku ?? "");
      return l
        ? { body: item(l, Q(req).includedData ? csv(Q(req).includedData) : ["summaries"]) }
        : undefined;
    }),
  );

  // Product Type Definitions 2020-09-01.
  app.get("/definitions/2020-09-01/productTypes", (req, reply) =>
    handle(req, reply, "read", () => ({
      body: {
        productTypes: PRODUCT_TYPES.map(([name, displayName]) => ({
          name,
          displayName,
          marketplaceIds: [AMAZON_TR_MARKETPLACE],
        })),
        productTypeVersion: "UHARM.E36B.0",
      },
    })),
  );
  app.get("/definitions/2020-09-01/productTypes/:productType", (req, reply) =>
    handle(req, reply, "read", () => {
      const pt = PRODUCT_TYPES.find(([n]) => n === P(req).productType);
      if (!pt) return undefined;
      return {
        body: {
          schema: {
            link: { resource: `${base}/product-type-schemas/${pt[0]}`, verb: "GET" },
            checksum: "c2NoZW1h",
          },
          requirements: "LISTING",
          requirementsEnforced: "ENFORCED",
          propertyGroups: {
            offer: {
              title: "Teklif",
              propertyNames: ["fulfillment_availability", "purchasable_offer", "condition_type"],
            },
            product_identity: {
              title: "Ürün kimliği",
              propertyNames: ["item_name", "brand", "externally_assigned_product_identifier"],
            },
          },
          locale: "tr_TR",
          marketplaceIds: [AMAZON_TR_MARKETPLACE],
          productType: pt[0],
          displayName: pt[1],
          productTypeVersion: { version: "UHARM.E36B.0", latest: true },
        },
      };
    }),
  );

  registerListingRoutes({ app, handle, sellerId, listings, bySku, now });

  const started = await server.start(opts);
  base = (opts.baseUrl ?? started.url).replace(/\/+$/, "");
  return {
    ...started,
    credentials: {
      sellerId,
      clientId,
      clientSecret,
      refreshToken,
      marketplaceId: AMAZON_TR_MARKETPLACE,
      apiUrl: base,
      tokenUrl: `${base}/auth/o2/token`,
    },
    listings,
    orders,
    feeds,
    answerProblems,
    rules,
    generateOrders,
    cancelOrder: (id) => {
      const o = orderOf(id);
      if (!o) return;
      (o.fulfillment as Row).fulfillmentStatus = "CANCELLED";
      for (const it of o.orderItems as Row[])
        it.cancellation = { cancellationRequest: { requester: "BUYER", cancelReason: "Alıcı vazgeçti" } };
      touch(o);
    },
    returnOrder: (id, units) => {
      const o = orderOf(id);
      if (!o) return;
      const rma = `D${(++reportSeq).toString(36).toUpperCase()}`;
      for (const it of o.orderItems as Row[]) {
        const product = it.product as Row;
        const sku = String(product.sellerSku);
        const qty = units ? (units[sku] ?? 0) : Number(it.quantityOrdered);
        if (!qty) continue;
        returnRows.push({
          "Order ID": o.orderId,
          "Order date": o.createdTime,
          "Return request date": clock(),
          "Return request status": "Approved",
          "Amazon RMA ID": rma,
          "Currency code": "TRY",
          "Label to be paid by": "Seller",
          "A-to-Z Claim": "N",
          "Is prime": "N",
          ASIN: product.asin,
          "Merchant SKU": sku,
          "Item Name": product.title,
          "Return quantity": qty,
          "Return Reason": "CR-UNWANTED_ITEM",
          "In policy": "Y",
          "Return type": "C-Returns",
          Resolution: "StandardRefund",
          "Order quantity": it.quantityOrdered,
        });
      }
    },
    returnReports,
    expireTokens: () => tokens.expireAll(),
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
