import {
  DELETION_GRACE_DAYS,
  deletionRequestSchema,
  deletionStatusSchema,
  EXPORT_FORMATS,
  envelopeSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { collectCompanyData, toWorkbook } from "./export.ts";
import { PrivacyService } from "./service.ts";

const tags = ["Privacy (KVKK)"];
const id = z.coerce.number().int().positive().max(2_147_483_647);

/** KVKK: the company's data export and its account deletion request (30-day grace period). */
export function privacyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new PrivacyService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/privacy/export",
      { schema: { tags, querystring: z.object({ format: z.enum(EXPORT_FORMATS).default("json") }) } },
      async (request, reply) => {
        const companyId = companyOf(request);
        const data = await collectCompanyData(ctx.database.db, companyId);
        const day = ctx.clock.now().toISOString().slice(0, 10);
        const name = `entegrasyon-paneli-verileri-${companyId}-${day}.${request.query.format}`;
        reply.header("cache-control", "private, no-store");
        reply.header("content-disposition", `attachment; filename="${name}"`);
        ctx.logger.info({ companyId, format: request.query.format }, "company data exported");
        if (request.query.format === "xlsx") {
          reply.header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
          return reply.send(await toWorkbook(data));
        }
        reply.header("content-type", "application/json; charset=utf-8");
        return reply.send(JSON.stringify({ exportedAt: ctx.clock.now().toISOString(), ...data }, null, 2));
      },
    );

    app.get(
      "/api/privacy/deletion",
      {
        schema: {
          tags,
          response: {
            200: envelopeSchema(
              z.object({ request: deletionStatusSchema.nullable(), graceDays: z.number() }),
            ),
          },
        },
      },
      async (request) =>
        ok({ request: await service.status(companyOf(request)), graceDays: DELETION_GRACE_DAYS }),
    );

    app.post(
      "/api/privacy/deletion",
      {
        schema: {
          tags,
          body: deletionRequestSchema,
          response: { 200: envelopeSchema(deletionStatusSchema) },
        },
      },
      async (request) =>
        ok(
          await service.request(companyOf(request), authOf(request).userId, request.body.password),
          "privacy.deletionRequested",
        ),
    );

    app.post(
      "/api/privacy/deletion/:id/cancel",
      { schema: { tags, params: z.object({ id }), response: { 200: envelopeSchema(deletionStatusSchema) } } },
      async (request) =>
        ok(
          await service.cancel(companyOf(request), request.params.id, authOf(request).userId),
          "privacy.deletionCancelled",
        ),
    );
  };
}
