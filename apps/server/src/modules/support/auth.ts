import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../platform/context.ts";
import { resolveAuth } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";

/** onRequest hook for `/api/support/…`: our own support team only; company accounts get 403. */
export function requireSupportUser(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await resolveAuth(ctx, request);
    if (!request.auth) throw AppError.unauthorized();
    if (request.auth.role !== "support") throw AppError.forbidden();
  };
}
