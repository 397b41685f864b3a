import {
  activityQuerySchema,
  activitySchema,
  createActivitySchema,
  envelopeSchema,
  pageNumberParam,
  pageSizeParam,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { listActivities, recordActivity } from "./repository.ts";

const tags = ["Activities"];

/** Spec section 7 "Activities": GET /api/Activity/{page}/{size} (data is the list) and POST /api/activity. */
export function activityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/Activity/:pageNumber/:pageSize",
      {
        schema: {
          tags,
          params: z.object({
            pageNumber: pageNumberParam(),
            pageSize: pageSizeParam(),
          }),
          querystring: activityQuerySchema,
          response: { 200: envelopeSchema(z.array(activitySchema)) },
        },
      },
      async (request) =>
        ok(
          await listActivities(ctx.database.db, companyOf(request), {
            ...request.params,
            ...request.query,
          }),
        ),
    );

    app.post("/api/activity", { schema: { tags, body: createActivitySchema } }, async (request) => {
      await recordActivity(ctx.database.db, {
        companyId: companyOf(request),
        userId: authOf(request).userId,
        action: "custom",
        detail: request.body.activity_Description,
      });
      return ok(null);
    });
  };
}
