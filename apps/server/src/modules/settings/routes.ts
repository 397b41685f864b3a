import {
  connectionFieldsSchema,
  connectionSaveResultSchema,
  connectionsOverviewSchema,
  connectionTestSchema,
  connectionTypeSchema,
  envelopeSchema,
  idParam,
  lineInput,
  optionSchema,
  runPreviewSchema,
  saveSettingsSchema,
  settingSchema,
  settingsLayoutSchema,
  settingTypeSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { ConnectionService } from "./connection-service.ts";
import { previewRun } from "./preview.ts";
import { SettingsService } from "./service.ts";

const tags = ["Settings"];
const productType = z.coerce.number().int().positive().max(1000);
const listKey = lineInput().max(100);
const keyList = lineInput()
  .max(1000)
  .transform((s) =>
    s
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  );
const optionList = { response: { 200: envelopeSchema(z.array(optionSchema)) } };

/** Spec section 7 "Settings": connections with their tests, integration settings, live lists. */
export function settingsRoutes(ctx: AppContext & WithEngine & WithSandbox): FastifyPluginAsyncZod {
  return async (app) => {
    const connections = new ConnectionService(ctx);
    const settings = new SettingsService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/settings/connections",
      { schema: { tags, response: { 200: envelopeSchema(connectionsOverviewSchema) } } },
      async (request) => ok(await connections.overview(companyOf(request))),
    );

    app.post(
      "/api/settings/connection-setting-update/:connectionType/:productType",
      {
        schema: {
          tags,
          params: z.object({ connectionType: connectionTypeSchema, productType }),
          body: connectionFieldsSchema,
          response: { 200: envelopeSchema(connectionSaveResultSchema) },
        },
      },
      async (request) => {
        const { connectionType, productType: type } = request.params;
        const result = await connections.save(
          companyOf(request),
          authOf(request).userId,
          connectionType,
          type,
          request.body.fields,
          request.body.agentId,
        );
        return ok(
          result,
          result.jobsReady
            ? "connectionSettings.connectionSavedJobsReady"
            : "connectionSettings.connectionSaved",
        );
      },
    );

    app.post(
      "/api/APIConnection/:connectionType/:x",
      {
        schema: {
          tags,
          params: z.object({ connectionType: connectionTypeSchema, x: productType }),
          body: connectionFieldsSchema.nullish(),
          response: { 200: envelopeSchema(connectionTestSchema) },
        },
      },
      async (request) => {
        const { connectionType, x } = request.params;
        return ok(
          await connections.test(
            companyOf(request),
            connectionType,
            x,
            request.body?.fields,
            request.body?.agentId,
          ),
        );
      },
    );

    app.get(
      "/api/settings/settings-layout",
      { schema: { tags, response: { 200: envelopeSchema(settingsLayoutSchema) } } },
      async (request) => ok(await settings.layout(companyOf(request))),
    );

    app.get(
      "/api/settings/setting-keys/:keys",
      {
        schema: {
          tags,
          params: z.object({ keys: keyList }),
          response: { 200: envelopeSchema(z.array(settingSchema)) },
        },
      },
      async (request) => ok(await settings.byKeys(companyOf(request), request.params.keys)),
    );

    app.post(
      "/api/settings",
      {
        schema: { tags, body: saveSettingsSchema, response: { 200: envelopeSchema(z.array(settingSchema)) } },
      },
      async (request) =>
        ok(
          await settings.save(companyOf(request), authOf(request).userId, request.body.settings),
          "connectionSettings.settingsSaved",
        ),
    );

    app.post(
      "/api/settings/preview/:jobType",
      {
        schema: {
          tags,
          params: z.object({ jobType: z.enum(["PriceIntegration", "StockIntegration"]) }),
          // A sales channel's run: what it would offer and at what price, before anything is sent.
          querystring: z.object({ channel: idParam().optional() }),
          response: { 200: envelopeSchema(runPreviewSchema) },
        },
      },
      async (request) =>
        ok(await previewRun(ctx, companyOf(request), request.params.jobType, request.query.channel)),
    );

    // Lists from the live systems, by the spec's names.
    const lists: Array<[string, "erp" | "ecommerce", string]> = [
      ["/api/settings/ecommerce-order-status-list", "ecommerce", "order-status-list"],
      ["/api/settings/erp-price-group-list", "erp", "price-group-list"],
      ["/api/settings/ecommerce-price-group-list", "ecommerce", "price-group-list"],
      ["/api/settings/sales-channel-list", "ecommerce", "sales-channel-list"],
      ["/api/settings/ecommerce-payment-type-list", "ecommerce", "payment-type-list"],
    ];
    for (const [path, side, list] of lists) {
      app.get(path, { schema: { tags, ...optionList } }, async (request) =>
        ok(await settings.liveList(companyOf(request), side, list)),
      );
    }
    app.get(
      "/api/settings/custom-data/:key",
      { schema: { tags, params: z.object({ key: listKey }), ...optionList } },
      async (request) => ok(await settings.liveList(companyOf(request), "erp", request.params.key)),
    );
    app.get(
      "/api/settings/e-commerce/custom-data/:key",
      { schema: { tags, params: z.object({ key: listKey }), ...optionList } },
      async (request) => ok(await settings.liveList(companyOf(request), "ecommerce", request.params.key)),
    );

    app.get(
      "/api/settings/:type",
      {
        schema: {
          tags,
          params: z.object({ type: settingTypeSchema }),
          response: { 200: envelopeSchema(z.array(settingSchema)) },
        },
      },
      async (request) => ok(await settings.byType(companyOf(request), request.params.type)),
    );
  };
}
