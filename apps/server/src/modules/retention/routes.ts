import { envelopeSchema, retentionSettingsSchema, retentionStateSchema } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { RetentionService } from "./service.ts";

const tags = ["Retention"];

/** How long the company's runs, reports, failed tasks, notifications and activities are kept. */
export function retentionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new RetentionService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/retention",
      { schema: { tags, response: { 200: envelopeSchema(retentionStateSchema) } } },
      async (request) => ok(await service.state(companyOf(request))),
    );

    app.put(
      "/api/retention",
      {
        schema: {
          tags,
          body: retentionSettingsSchema,
          response: { 200: envelopeSchema(retentionStateSchema) },
        },
      },
      async (request) =>
        ok(await service.save(companyOf(request), authOf(request).userId, request.body), "retention.saved"),
    );
  };
}
