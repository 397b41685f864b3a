import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context.ts";
import { ok } from "../../platform/http/envelope.ts";

/** Public settings the sign-in screens need before anyone is signed in. */
export function configRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get("/api/config", { schema: { tags: ["Config"] } }, async () =>
      ok({ captcha: ctx.config.captcha, demo: ctx.demoLogin ?? null }),
    );
  };
}
