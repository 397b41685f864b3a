import type { Socket } from "node:net";
import { isMessageKey, type MessageKey, message } from "@ep/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, failure } from "./envelope.ts";

const translate = (text: string) =>
  isMessageKey(text) ? message(text as MessageKey) : message("validation.fieldInvalid");

/** Marks the JSON body parser's failure, so it answers with its own message. */
export const MALFORMED_JSON = "EP_MALFORMED_JSON";

/**
 * Fastify's and Node's own refusals (content type, body size, bad URL, over-long parameter), by
 * code first: the answer names the problem, never echoes the path or Fastify's English text.
 */
const BY_CODE: Record<string, AppError> = {
  [MALFORMED_JSON]: new AppError(400, "request.malformedJson"),
  FST_ERR_CTP_EMPTY_JSON_BODY: new AppError(400, "request.malformedJson"),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new AppError(415, "request.unsupportedMediaType"),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: new AppError(400, "request.badRequest"),
  FST_ERR_CTP_BODY_TOO_LARGE: new AppError(413, "request.bodyTooLarge"),
  FST_ERR_BAD_URL: new AppError(400, "request.badUrl"),
  FST_ERR_MAX_PARAM_LENGTH: new AppError(414, "request.uriTooLong"),
  FST_INVALID_MULTIPART_CONTENT_TYPE: new AppError(415, "request.unsupportedMediaType"),
  FST_PROTO_VIOLATION: new AppError(400, "request.malformedJson"),
};

const BY_STATUS: Partial<Record<number, AppError>> = {
  404: AppError.notFound(),
  408: new AppError(408, "request.timeout"),
  413: new AppError(413, "request.bodyTooLarge"),
  414: new AppError(414, "request.uriTooLong"),
  415: new AppError(415, "request.unsupportedMediaType"),
  429: new AppError(429, "api.rateLimited"),
  431: new AppError(431, "request.headersTooLarge"),
};

/** The one mapping from anything thrown to the envelope; unexpected ones become 500 with the request id only. */
export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.retryAfterSeconds !== null) reply.header("retry-after", String(error.retryAfterSeconds));
    return reply.status(error.httpStatus).send(failure(error));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((v) => ({
      field: v.instancePath.replace(/^\//, "").replaceAll("/", ".") || (error.validationContext ?? ""),
      message: translate(v.message ?? ""),
    }));
    return reply.status(400).send(failure(AppError.validation(errors)));
  }
  const known = (error.code && BY_CODE[error.code]) || (error.statusCode && BY_STATUS[error.statusCode]);
  if (known) return reply.status(known.httpStatus).send(failure(known));
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Any other refusal of the client's request, said plainly.
    return reply.status(400).send(failure(new AppError(400, "request.badRequest")));
  }
  request.log.error({ err: error }, "unexpected error");
  return reply
    .status(500)
    .send(failure(new AppError(500, "api.internalError", 500, { requestId: String(request.id) })));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}

const CLIENT_ERRORS: Record<string, AppError> = {
  HPE_HEADER_OVERFLOW: new AppError(431, "request.headersTooLarge"),
  ERR_HTTP_REQUEST_TIMEOUT: new AppError(408, "request.timeout"),
};
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/**
 * Node's refusals before Fastify sees a request (headers too large, headers or body too slow,
 * unparseable HTTP): answered in the envelope too, then the connection is closed.
 */
export function clientErrorHandler(
  error: Error & { code?: string },
  socket: Socket,
  /** Headers every answer carries (the security headers), written on this raw answer too. */
  extraHeaders: Record<string, string> = {},
): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // A response already under way cannot be replaced: the connection just ends.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const appError = CLIENT_ERRORS[error.code ?? ""] ?? new AppError(400, "request.badRequest");
  const body = JSON.stringify(failure(appError));
  socket.end(
    `HTTP/1.1 ${appError.httpStatus} ${STATUS_TEXT[appError.httpStatus] ?? "Bad Request"}\r\n` +
      "Connection: close\r\n" +
      "Content-Type: application/json; charset=utf-8\r\n" +
      Object.entries(extraHeaders)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // A client that does not read the answer does not keep the socket either.
  socket.setTimeout(5_000, () => socket.destroy());
}
