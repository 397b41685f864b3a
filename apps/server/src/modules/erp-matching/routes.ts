import {
  createErpMatchingSchema,
  envelopeSchema,
  erpMatchingImportResultSchema,
  erpMatchingQuerySchema,
  erpMatchingSchema,
  idParam,
  importErpMatchingSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { ErpMatchingService } from "./service.ts";

const tags = ["ERP matching"];
const id = idParam();

/** Spec section 7 "ERP matching": GET, POST and DELETE /api/ErpMatching[/{id}], plus a CSV import. */
export function erpMatchingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new ErpMatchingService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/ErpMatching",
      {
        schema: {
          tags,
          querystring: erpMatchingQuerySchema,
          response: { 200: envelopeSchema(z.array(erpMatchingSchema)) },
        },
      },
      async (request) => ok(await service.list(companyOf(request), request.query.search)),
    );

    app.get(
      "/api/ErpMatching/:id",
      { schema: { tags, params: z.object({ id }), response: { 200: envelopeSchema(erpMatchingSchema) } } },
      async (request) => ok(await service.get(companyOf(request), request.params.id)),
    );

    app.post(
      "/api/ErpMatching",
      {
        schema: { tags, body: createErpMatchingSchema, response: { 200: envelopeSchema(erpMatchingSchema) } },
      },
      async (request) =>
        ok(
          await service.create(companyOf(request), authOf(request).userId, request.body),
          "erpMatching.saved",
        ),
    );

    app.delete("/api/ErpMatching/:id", { schema: { tags, params: z.object({ id }) } }, async (request) => {
      await service.remove(companyOf(request), authOf(request).userId, request.params.id);
      return ok(null, "erpMatching.deleted");
    });

    app.post(
      "/api/ErpMatching/import",
      {
        schema: {
          tags,
          body: importErpMatchingSchema,
          response: { 200: envelopeSchema(erpMatchingImportResultSchema) },
        },
      },
      async (request) =>
        ok(await service.import(companyOf(request), authOf(request).userId, request.body.csv)),
    );
  };
}
