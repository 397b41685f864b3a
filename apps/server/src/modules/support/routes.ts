import {
  announcementSchema,
  createAnnouncementSchema,
  envelopeSchema,
  idParam,
  lineInput,
  pagedListSchema,
  pageNumberParam,
  pageSizeParam,
  supportActionSchema,
  supportCompanySchema,
  supportDeletionSchema,
  supportLicenseUpdateSchema,
  supportTicketDetailSchema,
  supportTicketSchema,
  textInput,
  ticketStatusSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { PrivacyService } from "../privacy/service.ts";
import { sendAttachment } from "../tickets/routes.ts";
import { TicketService } from "../tickets/service.ts";
import { requireSupportUser } from "./auth.ts";
import { SupportService } from "./service.ts";

const id = idParam();
const tags = ["Support"];

/** The support console's calls: every company's tickets, companies, licences, announcements. */
export function supportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tickets = new TicketService(ctx);
    const support = new SupportService(ctx);
    const privacy = new PrivacyService(ctx);
    app.addHook("onRequest", requireSupportUser(ctx));

    app.get(
      "/api/support/deletions",
      { schema: { tags, response: { 200: envelopeSchema(z.array(supportDeletionSchema)) } } },
      async () => ok(await privacy.pending()),
    );

    app.get(
      "/api/support/tickets/:pageNumber/:pageSize",
      {
        schema: {
          tags,
          params: z.object({ pageNumber: pageNumberParam(), pageSize: pageSizeParam() }),
          querystring: z.object({
            status: z.preprocess(
              (v) => (v === "" || v === "-1" ? undefined : v),
              ticketStatusSchema.optional(),
            ),
            searchKey: lineInput().trim().max(100).optional(),
            companyId: id.optional(),
          }),
          response: { 200: envelopeSchema(pagedListSchema(supportTicketSchema)) },
        },
      },
      async (request) => ok(await tickets.inbox(request.params, request.query)),
    );

    app.get(
      "/api/support/tickets/:id",
      {
        schema: {
          tags,
          params: z.object({ id }),
          response: { 200: envelopeSchema(supportTicketDetailSchema) },
        },
      },
      async (request) => ok(await tickets.supportDetail(request.params.id)),
    );

    app.get(
      "/api/support/tickets/:id/attachments/:attachmentId",
      { schema: { tags, params: z.object({ id, attachmentId: id }) } },
      async (request, reply) =>
        sendAttachment(
          reply,
          tickets.files,
          await tickets.attachment(request.params.id, request.params.attachmentId),
        ),
    );

    app.post(
      "/api/support/tickets/:id/reply",
      {
        schema: {
          tags,
          params: z.object({ id }),
          body: z.object({
            message: textInput({ error: "tickets.messageRequired" })
              .trim()
              .min(1, { error: "tickets.messageRequired" })
              .max(5000, { error: "tickets.messageMax" }),
          }),
          response: { 200: envelopeSchema(supportTicketDetailSchema) },
        },
      },
      async (request) =>
        ok(
          await tickets.supportReply(authOf(request).userId, request.params.id, request.body.message),
          "tickets.replied",
        ),
    );

    app.post(
      "/api/support/tickets/:id/close",
      {
        schema: {
          tags,
          params: z.object({ id }),
          response: { 200: envelopeSchema(supportTicketDetailSchema) },
        },
      },
      async (request) =>
        ok(await tickets.supportClose(authOf(request).userId, request.params.id), "tickets.closed"),
    );

    app.get(
      "/api/support/companies",
      {
        schema: {
          tags,
          querystring: z.object({ searchKey: lineInput().trim().max(100).optional() }),
          response: { 200: envelopeSchema(z.array(supportCompanySchema)) },
        },
      },
      async (request) => ok(await support.companies(request.query.searchKey)),
    );

    app.put(
      "/api/support/licenses/:id",
      { schema: { tags, params: z.object({ id }), body: supportLicenseUpdateSchema } },
      async (request) =>
        ok(
          await support.updateLicense(authOf(request).userId, request.params.id, request.body),
          "tickets.licenseUpdated",
        ),
    );

    app.get(
      "/api/support/announcements",
      { schema: { tags, response: { 200: envelopeSchema(z.array(announcementSchema)) } } },
      async () => ok(await support.announcements()),
    );

    app.post(
      "/api/support/announcements",
      {
        schema: {
          tags,
          body: createAnnouncementSchema,
          response: { 200: envelopeSchema(announcementSchema) },
        },
      },
      async (request) =>
        ok(
          await support.createAnnouncement(authOf(request).userId, request.body),
          "tickets.announcementCreated",
        ),
    );

    app.get(
      "/api/support/actions",
      { schema: { tags, response: { 200: envelopeSchema(z.array(supportActionSchema)) } } },
      async () => ok(await support.latestActions()),
    );
  };
}
