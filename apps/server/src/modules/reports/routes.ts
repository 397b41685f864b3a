import { salesReportQuerySchema } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { turkishDate, turkishDateRange } from "../../platform/time/turkey.ts";
import { salesWorkbookStream } from "./export.ts";

const tags = ["Reports"];
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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
        // The same half-open range as GET /api/SalesReport.
        const range = turkishDateRange(request.query);
        if (range.from && range.to && range.from >= range.to) {
          throw new AppError(400, "salesExport.rangeInvalid");
        }
        // The file is named after the Turkish calendar days it covers (the range's end is exclusive).
        const day = (d: Date | null, shiftMs = 0) => (d ? turkishDate(new Date(d.getTime() + shiftMs)) : "");
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
