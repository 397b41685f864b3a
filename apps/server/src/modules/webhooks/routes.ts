import { envelopeSchema } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { WebhookService } from "./service.ts";

const tags = ["Webhooks"];
/** Deliveries are small JSON documents; a bigger body is refused before it is read. */
const DELIVERY_BODY_LIMIT = 1024 * 1024;
const RERUN_SWEEP_MS = 1_000;

const statusSchema = z.object({
  supported: z.boolean(),
  registered: z.boolean(),
  registeredAt: z.string().nullable(),
  lastDeliveryAt: z.string().nullable(),
  topics: z.array(z.string()),
  lastError: z.string().nullable(),
});

/**
 * `POST /api/webhooks/{connectionToken}`: the shops' order webhooks (public, signed), and for the panel
 * the company's webhook status and a "register" call.
 */
export function webhookRoutes(ctx: AppContext & WithEngine): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new WebhookService(ctx);

    const sweep = setInterval(() => {
      service
        .startRequestedReruns()
        .catch((error) => ctx.logger.warn({ err: error }, "webhook rerun sweep failed"));
    }, RERUN_SWEEP_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));

    // The public delivery route: the raw bytes are what the shop signed, so no JSON parsing first.
    await app.register(async (pub) => {
      pub.removeAllContentTypeParsers();
      pub.addContentTypeParser(
        "*",
        { parseAs: "buffer", bodyLimit: DELIVERY_BODY_LIMIT },
        (_req, body, done) => done(null, body),
      );
      pub.withTypeProvider<never>();
      pub.post(
        "/api/webhooks/:token",
        {
          schema: {
            tags,
            // Tokens are base64url: anything else (a NUL byte, a slash) is refused before the database.
            params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/) }),
            response: { 200: envelopeSchema(z.object({ duplicate: z.boolean() })) },
          },
        },
        async (request) => {
          const { token } = request.params as { token: string };
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const outcome = await service.receive(token, body, request.headers);
          if (outcome === "unknown") throw AppError.notFound();
          if (outcome === "unauthorized") throw new AppError(401, "webhooks.badSignature");
          if (outcome === "throttled") throw new AppError(429, "webhooks.tooManyDeliveries");
          return ok({ duplicate: outcome === "duplicate" });
        },
      );
    });

    await app.register(async (priv) => {
      priv.addHook("onRequest", requireCompanyUser(ctx));
      priv.get(
        "/api/webhooks/status",
        { schema: { tags, response: { 200: envelopeSchema(statusSchema) } } },
        async (request) => ok(await service.status(companyOf(request))),
      );
      priv.post(
        "/api/webhooks/register",
        { schema: { tags, response: { 200: envelopeSchema(statusSchema) } } },
        async (request) => {
          const status = await service.register(companyOf(request));
          return ok(status, status.registered ? "webhooks.registered" : "webhooks.registerFailed");
        },
      );
    });
  };
}
