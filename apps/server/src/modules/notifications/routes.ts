import {
  envelopeSchema,
  markAsReadSchema,
  notificationSchema,
  pagedListSchema,
  pageNumberParam,
  pageSizeParam,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { countUnread, listNotifications, markRead, raiseLicenceNotifications } from "./repository.ts";

const tags = ["Notifications"];

/** Spec section 7 "Activities and notifications": the bell's list, its unread count and mark-as-read. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const db = ctx.database.db;
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/Notification/count",
      { schema: { tags, response: { 200: envelopeSchema(z.number().int()) } } },
      async (request) => {
        const companyId = companyOf(request);
        // Licence warnings are raised when the panel asks; the source keeps each one single.
        await raiseLicenceNotifications(db, companyId, ctx.clock.now());
        return ok(await countUnread(db, companyId));
      },
    );

    app.get(
      "/api/Notification/:pageNumber/:pageSize",
      {
        schema: {
          tags,
          params: z.object({
            pageNumber: pageNumberParam(),
            pageSize: pageSizeParam(),
          }),
          response: { 200: envelopeSchema(pagedListSchema(notificationSchema)) },
        },
      },
      async (request) => {
        const { pageNumber, pageSize } = request.params;
        return ok(await listNotifications(db, companyOf(request), pageNumber, pageSize));
      },
    );

    app.post(
      "/api/Notification/mark-as-read",
      {
        schema: {
          tags,
          body: markAsReadSchema,
          response: { 200: envelopeSchema(z.object({ updated: z.number() })) },
        },
      },
      async (request) => ok({ updated: await markRead(db, companyOf(request), request.body) }),
    );
  };
}
