import { isMessageKey, type MessageKey, message } from "@ep/contracts";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, failure } from "./envelope.ts";

const translate = (text: string) =>
  isMessageKey(text) ? message(text as MessageKey) : message("validation.fieldInvalid");

/** Maps every thrown error to the envelope; unexpected ones become 500 with the request id only. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send(failure(error));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, "").replaceAll("/", ".") || (error.validationContext ?? ""),
        message: translate(v.message ?? ""),
      }));
      return reply.status(400).send(failure(AppError.validation(errors)));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(failure(new AppError(429, "api.rateLimited")));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, body too large and the like: the client's fault, said plainly.
      const status = error.statusCode === 404 ? 404 : 400;
      return reply
        .status(status)
        .send(failure(new AppError(status, status === 404 ? "api.notFound" : "validation.fieldInvalid")));
    }
    request.log.error({ err: error }, "unexpected error");
    return reply
      .status(500)
      .send(failure(new AppError(500, "api.internalError", 500, { requestId: String(request.id) })));
  });
}
