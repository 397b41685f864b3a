import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../platform/context.ts";
import { requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";

/** How long a session, once found valid in the database, is trusted by the long poll alone. */
export const LONG_POLL_SESSION_RECHECK_MS = 15_000;

/**
 * Sign-in check of the long poll: the token's signature on every call, the session row at most
 * every 15 s per session. An open panel asks again after every answer, and a database round trip
 * each time made the long polls queue ahead of every other call. The window is shorter than a
 * single poll's 25 s hold, the exposure that logout already has, and the call only reads run events.
 */
export function requireCompanyUserForLongPoll(ctx: AppContext) {
  const full = requireCompanyUser(ctx);
  const checkedAt = new Map<string, number>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const claims = header?.startsWith("Bearer ") ? await ctx.tokens.verify(header.slice(7).trim()) : null;
    const now = ctx.clock.now().getTime();
    const last = claims ? checkedAt.get(claims.sessionId) : undefined;
    if (claims && last !== undefined && now - last < LONG_POLL_SESSION_RECHECK_MS) {
      if (claims.role !== "company" || claims.companyId === null) throw AppError.forbidden();
      request.auth = claims;
      return;
    }
    await full(request, reply);
    if (!request.auth) return;
    if (checkedAt.size > 10_000) {
      for (const [id, at] of checkedAt) if (now - at >= LONG_POLL_SESSION_RECHECK_MS) checkedAt.delete(id);
    }
    checkedAt.set(request.auth.sessionId, now);
  };
}
