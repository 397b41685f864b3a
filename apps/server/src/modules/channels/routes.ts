import {
  addChannelSchema,
  channelSchema,
  channelSettingsSchema,
  channelSystemSchema,
  connectionTestSchema,
  envelopeSchema,
  idParam,
  message,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { ChannelService } from "./service.ts";

const tags = ["Channels"];
const byId = z.object({ id: idParam() });

/** A company's marketplace sales channels: list, connect, test, settings, remove; the caller's company only. */
export function channelRoutes(ctx: AppContext & WithSandbox): FastifyPluginAsyncZod {
  return async (app) => {
    const channels = new ChannelService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/channels/systems",
      { schema: { tags, response: { 200: envelopeSchema(z.array(channelSystemSchema)) } } },
      async () => ok(channels.systems()),
    );

    app.get(
      "/api/channels",
      { schema: { tags, response: { 200: envelopeSchema(z.array(channelSchema)) } } },
      async (request) => ok(await channels.list(companyOf(request))),
    );

    app.post(
      "/api/channels",
      { schema: { tags, body: addChannelSchema, response: { 200: envelopeSchema(channelSchema) } } },
      async (request) => {
        const { system, fields, settings } = request.body;
        const channel = await channels.add(
          companyOf(request),
          authOf(request).userId,
          system,
          fields,
          settings,
        );
        const key = channel.jobsReady ? "channels.addedJobsReady" : "channels.added";
        return { ...ok(channel), message: message(key, { name: channel.name }) };
      },
    );

    app.post(
      "/api/channels/test",
      {
        schema: {
          tags,
          body: addChannelSchema.omit({ settings: true }),
          response: { 200: envelopeSchema(connectionTestSchema) },
        },
      },
      async (request) =>
        ok(await channels.testLogin(companyOf(request), request.body.system, request.body.fields)),
    );

    app.post(
      "/api/channels/:id/test",
      { schema: { tags, params: byId, response: { 200: envelopeSchema(channelSchema) } } },
      async (request) => ok(await channels.test(companyOf(request), request.params.id)),
    );

    app.put(
      "/api/channels/:id/settings",
      {
        schema: {
          tags,
          params: byId,
          body: channelSettingsSchema,
          response: { 200: envelopeSchema(channelSchema) },
        },
      },
      async (request) =>
        ok(
          await channels.updateSettings(companyOf(request), request.params.id, request.body),
          "channels.settingsSaved",
        ),
    );

    app.delete(
      "/api/channels/:id",
      { schema: { tags, params: byId, response: { 200: envelopeSchema(z.null()) } } },
      async (request) => {
        const name = await channels.remove(companyOf(request), authOf(request).userId, request.params.id);
        return { ...ok(null), message: message("channels.removed", { name }) };
      },
    );
  };
}
