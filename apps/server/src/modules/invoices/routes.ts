import {
  CallCounter,
  createEInvoiceProvider,
  type EInvoiceProvider,
  isEInvoiceType,
  isFileInvoiceType,
} from "@ep/connectors";
import { currencyCode, dayParam, exchangeRateSchema, idParam } from "@ep/contracts";
import { erpVatRates } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { turkishDate, turkishDateRange } from "../../platform/time/turkey.ts";
import { openCompanyConnectors, rateLimitStoreFor } from "../connections/connector-factory.ts";
import { listChannels, openCredentials } from "../connections/repository.ts";
import { countInvoices } from "./count.ts";
import { type InvoiceJobSettings, sumReports } from "./cycle-types.ts";
import { isEligible } from "./eligibility.ts";
import { deleteRate, listRates, ordersWaitingForRate, saveRate } from "./exchange-rates.ts";
import { invoicesUblZip, invoicesWorkbook } from "./export.ts";
import { runInvoiceCycle } from "./issue.ts";
import { customerLink, customerLinkSubject } from "./links.ts";
import { listInvoices } from "./list.ts";
import { cancelRefusal } from "./returns.ts";
import { invoiceRouteOf } from "./route.ts";
import { EINVOICE_STATES, einvoices, invoiceSettings } from "./schema.ts";
import { SellerSettingsIncomplete } from "./seller.ts";
import { invoiceHtml, invoicePdf } from "./view.ts";

const tags = ["Invoices"];

/** Settings that cannot make a seller (no tax number, office or address) are the merchant's to fix: 409. */
function sellerRefusal(error: unknown): never {
  if (error instanceof SellerSettingsIncomplete) throw new AppError(409, "einvoices.sellerIncomplete");
  throw error;
}
const DAY_MS = 86_400_000;

const DEFAULT_SETTINGS: InvoiceJobSettings = {
  series: "WEB",
  draft: false,
  invoiceWhen: "paid",
  eInvoiceProfile: "TEMELFATURA",
};

const settingsSchema = z.object({
  series: z.string().regex(/^[A-Z0-9]{3}$/),
  draft: z.boolean(),
  invoiceWhen: z.enum(["paid", "shipped", "all"]),
  eInvoiceProfile: z.enum(["TEMELFATURA", "TICARIFATURA"]),
});

const currencyParam = currencyCode();

// A carrier's tracking number: letters, digits and dashes (Trendyol, Hepsiburada and Amazon take text).
const shipmentSchema = z.object({
  trackingNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{4,40}$/),
  carrier: z.string().trim().min(2).max(60).optional(),
});

// The shared id rule: text coerced, 1 … int4 max, Turkish message (ids past int4 are a 400, not a 500).
const idParams = z.object({ id: idParam() });

export async function loadInvoiceSettings(ctx: Pick<AppContext, "database">, companyId: number) {
  const [row] = await ctx.database.db
    .select()
    .from(invoiceSettings)
    .where(eq(invoiceSettings.companyId, companyId));
  return row
    ? {
        series: row.series,
        draft: row.draft,
        invoiceWhen: row.invoiceWhen,
        eInvoiceProfile: row.eInvoiceProfile,
      }
    : DEFAULT_SETTINGS;
}

/**
 * The company's e-invoice provider: its e-invoice service connection, or its "ERP" when that is an
 * e-invoice service (Uyumsoft 8/18, Trendyol e-Faturam 24). See route.ts.
 */
export async function providerOf(
  ctx: Pick<AppContext, "database" | "credentials" | "config" | "outbound">,
  companyId: number,
): Promise<EInvoiceProvider> {
  const { connection: row } = await invoiceRouteOf(ctx.database.db, companyId);
  if (!row || !isEInvoiceType(row.systemType)) throw new AppError(409, "einvoices.noProvider");
  return createEInvoiceProvider(row.systemType, openCredentials(ctx.credentials, row), {
    companyId: String(companyId),
    rateLimitStore: rateLimitStoreFor(ctx.database),
    timeoutMs: Math.min(ctx.config.connectorTimeoutMs, 15_000),
    retry: { maxRetries: 2, maxRetryAfterMs: 10_000 },
    fetch: ctx.outbound.fetch,
  });
}

/**
 * The provider the invoice job sends through: `undefined` for a portal without an API (LucaPortal), whose
 * invoices are generated and exported as files. A company with neither is refused (409).
 */
export async function invoiceProviderOf(
  ctx: Pick<AppContext, "database" | "credentials" | "config" | "outbound">,
  companyId: number,
): Promise<EInvoiceProvider | undefined> {
  const { connection: row } = await invoiceRouteOf(ctx.database.db, companyId);
  if (row && isFileInvoiceType(row.systemType)) return undefined;
  return providerOf(ctx, companyId);
}

async function companyInvoice(ctx: AppContext, companyId: number, id: number) {
  const [row] = await ctx.database.db
    .select()
    .from(einvoices)
    .where(and(eq(einvoices.id, id), eq(einvoices.companyId, companyId)));
  if (!row) throw new AppError(404, "einvoices.notFound");
  return row;
}

type InvoiceRow = typeof einvoices.$inferSelect;

/** The invoice a public link names, when the link's token is this invoice's (else 403, same for unknown ids). */
async function linkedInvoice(
  ctx: AppContext,
  id: number,
  query: { t?: string | undefined; e?: number | undefined; s?: string | undefined },
): Promise<InvoiceRow> {
  const [row] = await ctx.database.db.select().from(einvoices).where(eq(einvoices.id, id));
  const valid =
    !!row &&
    (query.t !== undefined
      ? ctx.tokens.linkSignatureValid(customerLinkSubject(row), query.t)
      : // Links given to shops before issue 35: signed id and expiry (30 days).
        query.e !== undefined &&
        query.s !== undefined &&
        query.e * 1000 >= ctx.clock.now().getTime() &&
        ctx.tokens.linkSignatureValid(`invoice-pdf:${id}:${query.e}`, query.s));
  // An unknown id and a wrong token read alike: nothing tells which ids exist.
  if (!row || !valid) throw new AppError(403, "einvoices.linkInvalid");
  return row;
}

const linkQuery = z.object({
  t: z.string().min(20).max(100).optional(),
  e: z.coerce.number().int().optional(),
  s: z.string().min(10).max(100).optional(),
});

/** The shop's customers open their invoice without a session: a signed link (see customerLink). */
export function invoicePublicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/api/public/invoices/:id",
      { schema: { tags, params: idParams, querystring: linkQuery } },
      async (request, reply) => {
        const row = await linkedInvoice(ctx, request.params.id, request.query);
        const html = await invoiceHtml(ctx, row, customerLink(ctx, row, "pdf"));
        return reply
          .header("content-type", "text/html; charset=utf-8")
          .header("cache-control", "private, no-store")
          .header("x-robots-tag", "noindex")
          .send(html);
      },
    );
    app.get(
      "/api/public/invoices/:id/pdf",
      { schema: { tags, params: idParams, querystring: linkQuery } },
      async (request, reply) => {
        const row = await linkedInvoice(ctx, request.params.id, request.query);
        const pdf = await invoicePdf(ctx, row);
        return reply
          .header("content-type", "application/pdf")
          .header("content-disposition", `inline; filename="${pdf.name}"`)
          .header("cache-control", "private, no-store")
          .send(pdf.bytes);
      },
    );
  };
}

/** The company-scoped part: every query carries the caller's company id. */
export function invoiceCompanyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (scoped) => {
    scoped.addHook("onRequest", requireCompanyUser(ctx));

    scoped.get(
      "/api/invoices",
      {
        schema: {
          tags,
          querystring: z.object({
            from: dayParam().optional(),
            to: dayParam().optional(),
            state: z.enum(EINVOICE_STATES).optional(),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
        },
      },
      async (request) => {
        const q = request.query;
        const companyId = companyOf(request);
        return ok(await listInvoices(ctx, companyId, q));
      },
    );

    // The count the Reports page shows for the same range (one definition: count.ts).
    scoped.get(
      "/api/invoices/summary",
      { schema: { tags, querystring: z.object({ from: dayParam().optional(), to: dayParam().optional() }) } },
      async (request) => {
        const companyId = companyOf(request);
        const range = turkishDateRange({ startDate: request.query.from, endDate: request.query.to });
        const { route } = await invoiceRouteOf(ctx.database.db, companyId);
        return ok({ ...(await countInvoices(ctx.database.db, companyId, range)), route });
      },
    );

    scoped.get("/api/invoices/exchange-rates", { schema: { tags } }, async (request) => {
      const companyId = companyOf(request);
      const settings = await loadInvoiceSettings(ctx, companyId);
      const today = turkishDate(ctx.clock.now());
      return ok({
        rates: await listRates(ctx.database.db, companyId),
        waiting: await ordersWaitingForRate(ctx.database.db, companyId, today, (order) =>
          isEligible(order, settings.invoiceWhen),
        ),
      });
    });

    scoped.put(
      "/api/invoices/exchange-rates",
      { schema: { tags, body: exchangeRateSchema } },
      async (request) => {
        const companyId = companyOf(request);
        await saveRate(ctx.database.db, companyId, request.body, ctx.clock.now());
        return ok(await listRates(ctx.database.db, companyId), "einvoices.rateSaved");
      },
    );

    scoped.delete(
      "/api/invoices/exchange-rates/:currency/:date",
      { schema: { tags, params: z.object({ currency: currencyParam, date: dayParam() }) } },
      async (request) => {
        const companyId = companyOf(request);
        const { currency, date } = request.params;
        if (!(await deleteRate(ctx.database.db, companyId, currency, date))) throw AppError.notFound();
        return ok(await listRates(ctx.database.db, companyId));
      },
    );

    scoped.get(
      "/api/invoices/export",
      {
        schema: {
          tags,
          querystring: z.object({
            from: dayParam(),
            to: dayParam().optional(),
            format: z.enum(["xlsx", "ubl"]).default("xlsx"),
          }),
        },
      },
      async (request, reply) => {
        const { from, format } = request.query;
        const to = request.query.to ?? from;
        const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
        if (!(span >= 0 && span <= 366)) throw new AppError(400, "einvoices.exportRangeInvalid");
        const companyId = companyOf(request);
        const name = from === to ? `faturalar-${from}` : `faturalar-${from}_${to}`;
        if (format === "ubl") {
          const { bytes, files } = await invoicesUblZip(ctx.database.db, companyId, { from, to }).catch(
            sellerRefusal,
          );
          if (files === 0) throw new AppError(404, "einvoices.exportEmpty");
          return reply
            .header("content-type", "application/zip")
            .header("content-disposition", `attachment; filename="${name}.zip"`)
            .header("x-invoice-count", String(files))
            .header("cache-control", "no-store")
            .send(bytes);
        }
        const { bytes, rows } = await invoicesWorkbook(ctx.database.db, companyId, { from, to }).catch(
          sellerRefusal,
        );
        // An empty file helps nobody: say there is nothing in the range instead.
        if (rows === 0) throw new AppError(404, "einvoices.exportEmpty");
        return reply
          .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", `attachment; filename="${name}.xlsx"`)
          .header("x-invoice-count", String(rows))
          .header("cache-control", "no-store")
          .send(bytes);
      },
    );

    scoped.get("/api/invoices/:id/pdf", { schema: { tags, params: idParams } }, async (request, reply) => {
      const row = await companyInvoice(ctx, companyOf(request), request.params.id);
      const pdf = await invoicePdf(ctx, row);
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `inline; filename="${pdf.name}"`)
        .header("cache-control", "no-store")
        .send(pdf.bytes);
    });

    scoped.get("/api/invoices/:id/view", { schema: { tags, params: idParams } }, async (request, reply) => {
      const row = await companyInvoice(ctx, companyOf(request), request.params.id);
      const html = await invoiceHtml(ctx, row, customerLink(ctx, row, "pdf"));
      return reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(html);
    });

    scoped.post(
      "/api/invoices/:id/cancel",
      { schema: { tags, params: idParams, body: z.object({ reason: z.string().trim().min(3).max(200) }) } },
      async (request) => {
        const row = await companyInvoice(ctx, companyOf(request), request.params.id);
        const refusal = cancelRefusal(row, ctx.clock.now().getTime());
        if (refusal) throw new AppError(409, refusal);
        const provider = await providerOf(ctx, row.companyId);
        await provider.cancelEArchive(row.ettn, request.body.reason);
        await ctx.database.db
          .update(einvoices)
          .set({ state: "cancelled", message: request.body.reason, updatedAt: ctx.clock.now() })
          .where(and(eq(einvoices.id, row.id), eq(einvoices.companyId, row.companyId)));
        return ok({ id: row.id, state: "cancelled" as const });
      },
    );

    // The shipment of a marketplace order (the merchant's own carrier): its tracking number goes back to the
    // marketplace once, after the invoice link (feedback.ts). A changed number is sent again, once.
    scoped.put(
      "/api/invoices/:id/shipment",
      { schema: { tags, params: idParams, body: shipmentSchema } },
      async (request) => {
        const row = await companyInvoice(ctx, companyOf(request), request.params.id);
        const { trackingNumber } = request.body;
        const carrier = request.body.carrier ?? null;
        const changed = row.trackingNumber !== trackingNumber;
        await ctx.database.db
          .update(einvoices)
          .set({
            trackingNumber,
            carrier,
            ...(changed
              ? {
                  trackingSentAt: null,
                  trackingRefusedAt: null,
                  trackingAttempts: 0,
                  trackingNextAt: null,
                  trackingMessage: null,
                }
              : {}),
          })
          .where(and(eq(einvoices.id, row.id), eq(einvoices.companyId, row.companyId)));
        return ok({ id: row.id, trackingNumber, carrier });
      },
    );

    scoped.get("/api/invoices/settings", { schema: { tags } }, async (request) =>
      ok(await loadInvoiceSettings(ctx, companyOf(request))),
    );

    scoped.put("/api/invoices/settings", { schema: { tags, body: settingsSchema } }, async (request) => {
      const companyId = companyOf(request);
      const values = { ...request.body, updatedAt: ctx.clock.now() };
      await ctx.database.db
        .insert(invoiceSettings)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: invoiceSettings.companyId, set: values });
      return ok(await loadInvoiceSettings(ctx, companyId));
    });

    scoped.post("/api/invoices/run", { schema: { tags } }, async (request) => {
      const companyId = companyOf(request);
      const provider = await invoiceProviderOf(ctx, companyId);
      const opened = await openCompanyConnectors(ctx, companyId, new CallCounter(), {
        timeoutMs: ctx.config.connectorTimeoutMs,
      });
      let report = await runInvoiceCycle({
        db: ctx.database.db,
        companyId,
        shopConnectionId: opened.shopConnectionId,
        provider,
        shop: opened.shop,
        vatRates: erpVatRates(opened.erp),
        settings: await loadInvoiceSettings(ctx, companyId),
        invoiceLink: (invoice) => customerLink(ctx, invoice),
        now: () => ctx.clock.now(),
      }).catch(sellerRefusal);
      // The marketplace channels' orders, each with its own connector (the link and tracking go back to it).
      for (const channel of await listChannels(ctx.database.db, companyId)) {
        if ((channel.settings as { invoices?: boolean }).invoices === false) continue;
        const ofChannel = await openCompanyConnectors(
          ctx,
          companyId,
          new CallCounter(),
          { timeoutMs: ctx.config.connectorTimeoutMs },
          channel.id,
        );
        const more = await runInvoiceCycle({
          db: ctx.database.db,
          companyId,
          shopConnectionId: channel.id,
          provider,
          shop: ofChannel.shop,
          marketplace: true,
          vatRates: erpVatRates(ofChannel.erp),
          settings: await loadInvoiceSettings(ctx, companyId),
          invoiceLink: (invoice) => customerLink(ctx, invoice),
          now: () => ctx.clock.now(),
        }).catch(sellerRefusal);
        report = sumReports(report, more);
      }
      return ok(report);
    });
  };
}
