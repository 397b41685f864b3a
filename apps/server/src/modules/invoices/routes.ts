import {
  CallCounter,
  createEInvoiceProvider,
  type EInvoiceProvider,
  isEInvoiceType,
  isFileInvoiceType,
} from "@ep/connectors";
import { dayParam, idParam } from "@ep/contracts";
import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { openCompanyConnectors, rateLimitStoreFor } from "../connections/connector-factory.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import { invoicesUblZip, invoicesWorkbook } from "./export.ts";
import { type InvoiceJobSettings, runInvoiceCycle } from "./issue.ts";
import { EINVOICE_STATES, einvoices, invoiceSettings } from "./schema.ts";
import { SellerSettingsIncomplete } from "./seller.ts";

const tags = ["Invoices"];

/** Settings that cannot make a seller (no tax number, office or address) are the merchant's to fix: 409. */
function sellerRefusal(error: unknown): never {
  if (error instanceof SellerSettingsIncomplete) throw new AppError(409, "einvoices.sellerIncomplete");
  throw error;
}
const DAY_MS = 86_400_000;
/** Inferred from GİB's e-Arşiv guide: a cancellation is accepted within 7 days of issue. */
export const EARCHIVE_CANCEL_DAYS = 7;
/** How long a PDF link given to the shop stays valid. */
export const PDF_LINK_DAYS = 30;

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

/** The company's e-invoice provider: its "ERP" connection when that is an e-invoice service (types 8, 18). */
export async function providerOf(
  ctx: Pick<AppContext, "database" | "credentials" | "config" | "outbound">,
  companyId: number,
): Promise<EInvoiceProvider> {
  const row = await findConnection(ctx.database.db, companyId, "erp");
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
  const row = await findConnection(ctx.database.db, companyId, "erp");
  if (row && isFileInvoiceType(row.systemType)) return undefined;
  return providerOf(ctx, companyId);
}

export function pdfLink(ctx: Pick<AppContext, "config" | "tokens" | "clock">, invoiceId: number): string {
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + PDF_LINK_DAYS * 86_400;
  const signature = ctx.tokens.linkSignature(`invoice-pdf:${invoiceId}:${expires}`);
  return `${ctx.config.publicUrl.replace(/\/$/, "")}/api/public/invoices/${invoiceId}/pdf?e=${expires}&s=${signature}`;
}

async function companyInvoice(ctx: AppContext, companyId: number, id: number) {
  const [row] = await ctx.database.db
    .select()
    .from(einvoices)
    .where(and(eq(einvoices.id, id), eq(einvoices.companyId, companyId)));
  if (!row) throw new AppError(404, "einvoices.notFound");
  return row;
}

async function sendPdf(ctx: AppContext, companyId: number, ettn: string, number: string) {
  const provider = await providerOf(ctx, companyId);
  try {
    return { bytes: Buffer.from(await provider.getPdf(ettn)), name: `${number}.pdf` };
  } catch {
    throw new AppError(409, "einvoices.pdfUnavailable");
  }
}

/** The shop's customers open an invoice PDF without a session: a signed, expiring link. */
export function invoicePublicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/api/public/invoices/:id/pdf",
      {
        schema: {
          tags,
          params: idParams,
          querystring: z.object({ e: z.coerce.number().int(), s: z.string().min(10).max(100) }),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { e, s } = request.query;
        if (
          e * 1000 < ctx.clock.now().getTime() ||
          !ctx.tokens.linkSignatureValid(`invoice-pdf:${id}:${e}`, s)
        )
          throw new AppError(403, "einvoices.linkInvalid");
        const [row] = await ctx.database.db.select().from(einvoices).where(eq(einvoices.id, id));
        if (!row) throw new AppError(404, "einvoices.notFound");
        const pdf = await sendPdf(ctx, row.companyId, row.ettn, row.number);
        return reply
          .header("content-type", "application/pdf")
          .header("content-disposition", `inline; filename="${pdf.name}"`)
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
        const rows = await ctx.database.db
          .select()
          .from(einvoices)
          .where(
            and(
              eq(einvoices.companyId, companyId),
              q.from ? gte(einvoices.issueDate, q.from) : undefined,
              // A bare end date includes that day.
              q.to
                ? lt(einvoices.issueDate, new Date(Date.parse(q.to) + DAY_MS).toISOString().slice(0, 10))
                : undefined,
              q.state ? eq(einvoices.state, q.state) : undefined,
            ),
          )
          .orderBy(desc(einvoices.id))
          .limit(q.limit);
        const now = ctx.clock.now().getTime();
        const originalIds = [...new Set(rows.flatMap((r) => (r.returnOfId ? [r.returnOfId] : [])))];
        const originals = originalIds.length
          ? await ctx.database.db
              .select({ id: einvoices.id, number: einvoices.number })
              .from(einvoices)
              .where(and(eq(einvoices.companyId, companyId), inArray(einvoices.id, originalIds)))
          : [];
        const numberOf = new Map(originals.map((o) => [o.id, o.number]));
        return ok(
          rows.map((r) => ({
            id: r.id,
            number: r.number,
            ettn: r.ettn,
            orderNo: r.orderNo,
            buyer: r.buyer,
            total: r.total,
            currency: r.currency,
            type: r.profile === "EARSIVFATURA" ? ("eArchive" as const) : ("eInvoice" as const),
            profile: r.profile,
            kind: r.type,
            returnOf: r.returnOfId ? (numberOf.get(r.returnOfId) ?? null) : null,
            state: r.state,
            message: r.message,
            issueDate: r.issueDate,
            attached: r.attachedAt !== null,
            cancellable: cancelRefusal(r, now) === null,
          })),
        );
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
      const pdf = await sendPdf(ctx, row.companyId, row.ettn, row.number);
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `inline; filename="${pdf.name}"`)
        .header("cache-control", "no-store")
        .send(pdf.bytes);
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
      const report = await runInvoiceCycle({
        db: ctx.database.db,
        companyId,
        shopConnectionId: opened.shopConnectionId,
        provider,
        shop: opened.shop,
        settings: await loadInvoiceSettings(ctx, companyId),
        pdfLink: (id) => pdfLink(ctx, id),
        now: () => ctx.clock.now(),
      }).catch(sellerRefusal);
      return ok(report);
    });
  };
}

type CancelRefusal = "einvoices.cancelNotEArchive" | "einvoices.cancelTooLate" | "einvoices.cancelState";

function cancelRefusal(
  row: { profile: string; state: string; issueDate: string },
  nowMs: number,
): CancelRefusal | null {
  if (row.profile !== "EARSIVFATURA") return "einvoices.cancelNotEArchive";
  if (!["queued", "sent", "approved"].includes(row.state)) return "einvoices.cancelState";
  if (nowMs - Date.parse(`${row.issueDate}T00:00:00+03:00`) > (EARCHIVE_CANCEL_DAYS + 1) * DAY_MS)
    return "einvoices.cancelTooLate";
  return null;
}
