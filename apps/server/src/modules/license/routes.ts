import { envelopeSchema, licenseSchema } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { listLicenses } from "./repository.ts";

export function licenseRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/api/CustomerLicense",
      {
        schema: { tags: ["Licence"], response: { 200: envelopeSchema(z.array(licenseSchema)) } },
        onRequest: requireCompanyUser(ctx),
      },
      async (request) => ok(await listLicenses(ctx.database.db, companyOf(request), ctx.clock.now())),
    );
  };
}
