import {
  checkDifferenceGroupSchema,
  connectionCheckOverviewSchema,
  connectionTypeSchema,
  envelopeSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { requireSupportUser } from "../support/auth.ts";
import { ConnectionCheckService } from "./service.ts";

const tags = ["Settings"];
const overview = { response: { 200: envelopeSchema(connectionCheckOverviewSchema) } };

/** The company's connection check (issue 36): its last outcome, "Bağlantıyı doğrula", "Yine de devam et". */
export function connectionCheckRoutes(ctx: AppContext & WithSandbox): FastifyPluginAsyncZod {
  return async (app) => {
    const checks = new ConnectionCheckService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get("/api/settings/connection-check", { schema: { tags, ...overview } }, async (request) =>
      ok(await checks.overview(companyOf(request))),
    );

    app.post(
      "/api/settings/connection-check",
      {
        schema: {
          tags,
          body: z.object({ connectionType: connectionTypeSchema.optional() }).nullish(),
          ...overview,
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        const only = request.body?.connectionType;
        // The e-invoice service has its connection test only (it reads nothing the jobs depend on).
        if (only === undefined || only === "erp") await checks.run(companyId, "erp", "manual");
        if (only === undefined || only === "ecommerce") await checks.run(companyId, "shop", "manual");
        return ok(await checks.overview(companyId), "connectionCheck.checked");
      },
    );

    app.post("/api/settings/connection-check/proceed", { schema: { tags, ...overview } }, async (request) => {
      const companyId = companyOf(request);
      await checks.proceed(companyId);
      return ok(await checks.overview(companyId), "connectionCheck.proceeded");
    });
  };
}

/** The support console's view: differences across companies, grouped by system, operation and rule. */
export function connectionCheckSupportRoutes(ctx: AppContext & WithSandbox): FastifyPluginAsyncZod {
  return async (app) => {
    const checks = new ConnectionCheckService(ctx);
    app.addHook("onRequest", requireSupportUser(ctx));
    app.get(
      "/api/support/connection-checks",
      {
        schema: { tags: ["Support"], response: { 200: envelopeSchema(z.array(checkDifferenceGroupSchema)) } },
      },
      async () => ok(await checks.differences()),
    );
  };
}
