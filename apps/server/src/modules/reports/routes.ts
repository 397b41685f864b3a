import { salesReportQuerySchema } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { TURKEY_OFFSET_MS } from "../../platform/time/turkey.ts";
import { salesWorkbookStream } from "./export.ts";

const tags = ["Reports"];
const DAY_MS = 86_400_000;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The same half-open range as GET /api/SalesReport: a bare end date (YYYY-MM-DD) includes that day. */
export function exportRange(q: { startDate?: string; endDate?: string }) {
  const from = q.startDate ? new Date(q.startDate) : null;
  let to = q.endDate ? new Date(q.endDate) : null;
  if (to && q.endDate && /^\d{4}-\d{2}-\d{2}$/.test(q.endDate)) to = new Date(to.getTime() + DAY_MS);
  return { from, to };
}

/** GET /api/SalesReport/export: every order of the report's filter as one Excel file, streamed. */
export function reportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/SalesReport/export",
      {
        schema: {
          tags,
          querystring: salesReportQuerySchema.pick({ startDate: true, endDate: true }),
        },
      },
      async (request, reply) => {
        const range = exportRange(request.query);
        if (range.from && range.to && range.from >= range.to) {
          throw new AppError(400, "salesExport.rangeInvalid");
        }
        // The file is named after the Turkish calendar days it covers (the range's end is exclusive).
        const day = (d: Date | null, shiftMs = 0) =>
          d ? new Date(d.getTime() + TURKEY_OFFSET_MS + shiftMs).toISOString().slice(0, 10) : "";
        const name = `satis-raporu-${day(range.from) || "baslangic"}-${day(range.to, -1) || "bugun"}.xlsx`;
        const stream = salesWorkbookStream(ctx.database.db, companyOf(request), range, (error) =>
          request.log.error({ err: error }, "sales report export failed"),
        );
        return reply
          .header("content-type", XLSX_TYPE)
          .header("content-disposition", `attachment; filename="${name}"`)
          .header("cache-control", "no-store")
          .send(stream);
      },
    );
  };
}
