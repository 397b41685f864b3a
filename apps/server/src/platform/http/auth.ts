import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.ts";
import { sessions } from "../db/schema.ts";
import { AppError } from "./envelope.ts";

export type AuthInfo = {
  sessionId: string;
  userId: number;
  companyId: number | null;
  role: "company" | "support";
};

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
}

/**
 * How long a checked session counts without asking the database again. Logout, password changes and
 * account deletion in this process forget their sessions at once (`forgetSessions`); a revocation
 * made by another server process is seen within this time.
 */
export const SESSION_RECHECK_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;

type CheckedSession = { claims: AuthInfo; expiresAt: number; checkedUntil: number };
const checkedSessions = new WeakMap<AppContext, Map<string, CheckedSession>>();

function sessionCache(ctx: AppContext): Map<string, CheckedSession> {
  let cache = checkedSessions.get(ctx);
  if (!cache) {
    cache = new Map();
    checkedSessions.set(ctx, cache);
  }
  return cache;
}

/** Drops the checked sessions of a session, a user or a company, so their next call asks the database. */
export function forgetSessions(
  ctx: AppContext,
  which: { sessionId?: string; userId?: number; companyId?: number },
) {
  const cache = sessionCache(ctx);
  for (const [token, entry] of cache) {
    const { claims } = entry;
    if (
      (which.sessionId !== undefined && claims.sessionId === which.sessionId) ||
      (which.userId !== undefined && claims.userId === which.userId) ||
      (which.companyId !== undefined && claims.companyId === which.companyId)
    )
      cache.delete(token);
  }
}

/**
 * Reads the bearer token and checks its session row: a revoked or expired session gets 401. A token
 * whose row was found valid less than `SESSION_RECHECK_MS` ago is not verified nor looked up again
 * (a busy panel otherwise pays an HMAC and a query on every call).
 */
export async function resolveAuth(ctx: AppContext, request: FastifyRequest): Promise<AuthInfo | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return null;
  const token = header.slice(7).trim();
  const cache = sessionCache(ctx);
  const now = ctx.clock.now();
  const seen = cache.get(token);
  if (seen && Date.now() < seen.checkedUntil && now.getTime() < seen.expiresAt) return seen.claims;
  if (seen) cache.delete(token);
  const claims = await ctx.tokens.verify(token);
  if (!claims) return null;
  const [session] = await ctx.database.db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.userId, claims.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  if (!session) return null;
  if (cache.size >= SESSION_CACHE_MAX) {
    // The oldest entry goes (a Map keeps insertion order).
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(token, {
    claims,
    expiresAt: session.expiresAt.getTime(),
    checkedUntil: Date.now() + SESSION_RECHECK_MS,
  });
  return claims;
}

/** onRequest hook for company endpoints: a signed-in company user, whose company scopes every query. */
export function requireCompanyUser(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await resolveAuth(ctx, request);
    if (!request.auth) throw AppError.unauthorized();
    if (request.auth.role !== "company" || request.auth.companyId === null) throw AppError.forbidden();
  };
}

/** onRequest hook for calls any signed-in user may make (their own account, logout). */
export function requireUser(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await resolveAuth(ctx, request);
    if (!request.auth) throw AppError.unauthorized();
  };
}

/** The signed-in caller; only valid behind one of the hooks above. */
export function authOf(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw AppError.unauthorized();
  return request.auth;
}

export function companyOf(request: FastifyRequest): number {
  const { companyId } = authOf(request);
  if (companyId === null) throw AppError.forbidden();
  return companyId;
}
