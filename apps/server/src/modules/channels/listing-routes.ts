import {
  categoryMappingInputSchema,
  categoryMappingSchema,
  envelopeSchema,
  erpVariantOptionSchema,
  idParam,
  listingProfileSchema,
  marketplaceAttributeSchema,
  marketplaceBrandSchema,
  marketplaceCategorySchema,
  message,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { ChannelListingService } from "./listing-service.ts";

const tags = ["Channels"];
const byId = z.object({ id: idParam() });

/**
 * Product listing on a marketplace channel (issue 37): the marketplace's category, attribute and brand
 * lists, the company's category mappings onto them, and starting the listing; the caller's company only.
 */
export function channelListingRoutes(ctx: AppContext & WithEngine): FastifyPluginAsyncZod {
  return async (app) => {
    const listing = new ChannelListingService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/channels/:id/categories",
      {
        schema: { tags, params: byId, response: { 200: envelopeSchema(z.array(marketplaceCategorySchema)) } },
      },
      async (request) => ok(await listing.categories(companyOf(request), request.params.id)),
    );

    app.get(
      "/api/channels/:id/categories/:categoryId/attributes",
      {
        schema: {
          tags,
          params: byId.extend({ categoryId: z.string().regex(/^[\w-]{1,64}$/) }),
          response: { 200: envelopeSchema(z.array(marketplaceAttributeSchema)) },
        },
      },
      async (request) =>
        ok(await listing.attributes(companyOf(request), request.params.id, request.params.categoryId)),
    );

    app.get(
      "/api/channels/:id/brands",
      {
        schema: {
          tags,
          params: byId,
          querystring: z.object({ name: z.string().trim().min(1).max(200).optional() }),
          response: { 200: envelopeSchema(z.array(marketplaceBrandSchema)) },
        },
      },
      async (request) => ok(await listing.brands(companyOf(request), request.params.id, request.query.name)),
    );

    app.get(
      "/api/channels/:id/listing-profile",
      { schema: { tags, params: byId, response: { 200: envelopeSchema(listingProfileSchema) } } },
      async (request) => ok(await listing.profile(companyOf(request), request.params.id)),
    );

    app.get(
      "/api/channels/:id/erp-variant-options",
      {
        schema: {
          tags,
          params: byId,
          querystring: z.object({ category: z.string().trim().min(1).max(500) }),
          response: { 200: envelopeSchema(z.array(erpVariantOptionSchema)) },
        },
      },
      async (request) =>
        ok(await listing.erpVariantOptions(companyOf(request), request.params.id, request.query.category)),
    );

    app.get(
      "/api/channels/:id/category-mappings",
      { schema: { tags, params: byId, response: { 200: envelopeSchema(z.array(categoryMappingSchema)) } } },
      async (request) => ok(await listing.list(companyOf(request), request.params.id)),
    );

    app.post(
      "/api/channels/:id/category-mappings",
      {
        schema: {
          tags,
          params: byId,
          body: categoryMappingInputSchema,
          response: { 200: envelopeSchema(categoryMappingSchema) },
        },
      },
      async (request) => {
        const saved = await listing.save(companyOf(request), request.params.id, request.body);
        return {
          ...ok(saved),
          message: message("listing.mappingSaved", {
            category: saved.erpCategory,
            target: saved.categoryName,
          }),
        };
      },
    );

    app.delete(
      "/api/channels/:id/category-mappings/:mappingId",
      {
        schema: {
          tags,
          params: byId.extend({ mappingId: idParam() }),
          response: { 200: envelopeSchema(z.null()) },
        },
      },
      async (request) => {
        await listing.remove(companyOf(request), request.params.id, request.params.mappingId);
        return { ...ok(null), message: message("listing.mappingRemoved") };
      },
    );

    app.post(
      "/api/channels/:id/listing",
      {
        schema: {
          tags,
          params: byId,
          response: { 200: envelopeSchema(z.object({ runId: z.number(), jobId: z.number() })) },
        },
      },
      async (request) => {
        const started = await listing.start(companyOf(request), request.params.id, authOf(request).userId);
        return { ...ok(started), message: message("listing.started") };
      },
    );
  };
}
