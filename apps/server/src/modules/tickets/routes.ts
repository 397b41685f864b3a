import {
  createTicketSchema,
  envelopeSchema,
  idParam,
  isMessageKey,
  type MessageKey,
  message,
  pagedListSchema,
  pageNumberParam,
  pageSizeParam,
  ticketCategorySchema,
  ticketListQuerySchema,
  ticketReplyInputSchema,
  ticketSchema,
  ticketStatusSchema,
} from "@ep/contracts";
import multipart from "@fastify/multipart";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { type AttachmentStore, readTicketForm } from "./attachments.ts";
import type { TicketAttachmentRow } from "./schema.ts";
import { TicketService } from "./service.ts";

const id = idParam();
const tags = ["Tickets"];

/** Form fields arrive untyped (multipart); they are checked with the same zod schemas as JSON. */
export function parseForm<T extends z.ZodType>(schema: T, fields: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw AppError.validation(
    parsed.error.issues.map((i) => ({
      field: i.path.join("."),
      message: isMessageKey(i.message)
        ? message(i.message as MessageKey)
        : message("validation.fieldInvalid"),
    })),
  );
}

/** Streams a stored attachment with its checked type; the browser is told not to guess another. */
export function sendAttachment(
  reply: FastifyReply,
  store: AttachmentStore,
  file: TicketAttachmentRow | undefined,
) {
  if (!file) throw AppError.notFound();
  reply.header("content-type", file.contentType);
  reply.header("x-content-type-options", "nosniff");
  reply.header("cache-control", "private, no-store");
  reply.header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
  return reply.send(store.open(file.storageKey));
}

/** Spec section 7 "Tickets": the company's own tickets. */
export function ticketRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new TicketService(ctx);
    await app.register(multipart, { throwFileSizeLimit: true });
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.post(
      "/api/Ticket/my-company",
      { schema: { tags, response: { 200: envelopeSchema(ticketSchema) } } },
      async (request) => {
        const { fields, files } = await readTicketForm(request);
        const input = parseForm(createTicketSchema, fields);
        return ok(await service.create(authOf(request), companyOf(request), input, files), "tickets.created");
      },
    );

    app.get(
      "/api/Ticket/categories",
      {
        schema: {
          tags,
          querystring: z.object({
            parentid: z.preprocess((v) => (v === "" || v === "null" ? undefined : v), id.optional()),
          }),
          response: { 200: envelopeSchema(z.array(ticketCategorySchema)) },
        },
      },
      async (request) => ok(await service.categories(request.query.parentid ?? null)),
    );

    app.get(
      "/api/Ticket/my-company/:pageNumber/:pageSize",
      {
        schema: {
          tags,
          params: z.object({ pageNumber: pageNumberParam(), pageSize: pageSizeParam() }),
          querystring: ticketListQuerySchema,
          response: { 200: envelopeSchema(pagedListSchema(ticketSchema)) },
        },
      },
      async (request) => ok(await service.list(companyOf(request), request.params, request.query)),
    );

    app.get(
      "/api/Ticket/my-company/:id",
      { schema: { tags, params: z.object({ id }), response: { 200: envelopeSchema(ticketSchema) } } },
      async (request) => ok(await service.get(companyOf(request), request.params.id)),
    );

    app.get(
      "/api/Ticket/my-company/:id/attachments/:attachmentId",
      { schema: { tags, params: z.object({ id, attachmentId: id }) } },
      async (request, reply) => {
        await service.get(companyOf(request), request.params.id);
        const file = await service.attachment(request.params.id, request.params.attachmentId);
        return sendAttachment(reply, service.files, file);
      },
    );

    app.post(
      "/api/Ticket/my-company/ticket_reply",
      { schema: { tags, response: { 200: envelopeSchema(ticketSchema) } } },
      async (request) => {
        const { fields, files } = await readTicketForm(request);
        const input = parseForm(ticketReplyInputSchema, fields);
        return ok(await service.reply(authOf(request), companyOf(request), input, files), "tickets.replied");
      },
    );

    app.post(
      "/api/Ticket/my-company/update-state",
      {
        schema: {
          tags,
          querystring: z.object({ ticketid: id, status: ticketStatusSchema }),
          response: { 200: envelopeSchema(ticketSchema) },
        },
      },
      async (request) =>
        ok(
          await service.updateState(companyOf(request), request.query.ticketid, request.query.status),
          "tickets.closed",
        ),
    );

    app.get(
      "/api/Ticket/count-by-status/:status",
      {
        schema: {
          tags,
          params: z.object({ status: ticketStatusSchema }),
          response: { 200: envelopeSchema(z.number()) },
        },
      },
      async (request) => ok(await service.countByStatus(companyOf(request), request.params.status)),
    );
  };
}
