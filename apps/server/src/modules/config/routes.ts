import { availabilityOf, listConnectors } from "@ep/connectors";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context.ts";
import { ok } from "../../platform/http/envelope.ts";

/** Public settings the sign-in screens need before anyone is signed in. */
export function configRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get("/api/config", { schema: { tags: ["Config"] } }, async () =>
      ok({ captcha: ctx.config.captcha, demo: ctx.demoLogin ?? null, systems: systemAvailability() }),
    );
  };
}

/** Each system of the registration lists with how it can be connected today, by type number. */
function systemAvailability() {
  const of = (kind: "erp" | "shop") =>
    Object.fromEntries(listConnectors(kind).map((d) => [String(d.type), availabilityOf(d)]));
  return { erp: of("erp"), ecommerce: of("shop") };
}
