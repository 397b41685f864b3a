import {
  dailySalesSchema,
  dashboardSchema,
  envelopeSchema,
  runStatisticsSchema,
  salesReportQuerySchema,
  salesReportSchema,
  timePeriodSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { dashboardCache } from "./dashboard-cache.ts";
import { DashboardService } from "./service.ts";

const tags = ["Dashboard"];

/** Spec section 7 "Dashboard and reports". */
export function dashboardRoutes(ctx: AppContext & WithEngine): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new DashboardService(ctx);
    const cache = dashboardCache<Awaited<ReturnType<DashboardService["dashboard"]>>>(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/Dashboard",
      { schema: { tags, response: { 200: envelopeSchema(dashboardSchema) } } },
      async (request) => {
        const companyId = companyOf(request);
        return ok(await cache.get(companyId, () => service.dashboard(companyId)));
      },
    );

    app.get(
      "/api/Dashboard/sales-reports",
      {
        schema: {
          tags,
          querystring: z.object({ timePeriod: timePeriodSchema.default("weekly") }),
          response: { 200: envelopeSchema(z.array(dailySalesSchema)) },
        },
      },
      async (request) => ok(await service.salesReports(companyOf(request), request.query.timePeriod)),
    );

    app.get(
      "/api/SalesReport",
      {
        schema: {
          tags,
          querystring: salesReportQuerySchema,
          response: { 200: envelopeSchema(salesReportSchema) },
        },
      },
      async (request) => ok(await service.salesReport(companyOf(request), request.query)),
    );

    app.get(
      "/api/SalesReport/run-statistics",
      {
        schema: {
          tags,
          querystring: salesReportQuerySchema.pick({ startDate: true, endDate: true }),
          response: { 200: envelopeSchema(runStatisticsSchema) },
        },
      },
      async (request) => ok(await service.runStatistics(companyOf(request), request.query)),
    );
  };
}
