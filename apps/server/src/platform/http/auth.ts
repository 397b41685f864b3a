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

/** The bearer token of a call, if it has one. */
function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
}

/** Session lookups under way, by token: the calls of one page that arrive together share one. */
const pendingLookups = new WeakMap<AppContext, Map<string, Promise<AuthInfo | null>>>();

/**
 * Reads the bearer token and checks its session row: a revoked or expired session gets 401. A token
 * whose row was found valid less than `SESSION_RECHECK_MS` ago is not verified nor looked up again
 * (a busy panel otherwise pays an HMAC and a query on every call), and calls with the same token that
 * arrive while its row is being read wait for that one query (32 concurrent calls of a company whose
 * check had lapsed made 32 queries at once, which every other company's calls queued behind).
 */
export async function resolveAuth(ctx: AppContext, request: FastifyRequest): Promise<AuthInfo | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const cache = sessionCache(ctx);
  const seen = cache.get(token);
  if (seen && Date.now() < seen.checkedUntil && ctx.clock.now().getTime() < seen.expiresAt)
    return seen.claims;
  if (seen) cache.delete(token);
  let pending = pendingLookups.get(ctx);
  if (!pending) {
    pending = new Map();
    pendingLookups.set(ctx, pending);
  }
  const underWay = pending.get(token);
  if (underWay) return underWay;
  const lookup = checkSession(ctx, token).finally(() => pending.delete(token));
  pending.set(token, lookup);
  return lookup;
}

async function checkSession(ctx: AppContext, token: string): Promise<AuthInfo | null> {
  const cache = sessionCache(ctx);
  const now = ctx.clock.now();
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

/**
 * The company a call's token names, from its signature alone (or the session already checked), with
 * no query: the fairness gate (fairness.ts) admits a company's call before any database work is done
 * for it. Whether the session still counts is decided afterwards by the route's hook (`resolveAuth`).
 */
export async function claimedCompany(ctx: AppContext, request: FastifyRequest): Promise<number | undefined> {
  const token = bearerToken(request);
  if (!token) return undefined;
  const claims = sessionCache(ctx).get(token)?.claims ?? (await ctx.tokens.verify(token));
  return claims?.role === "company" ? (claims.companyId ?? undefined) : undefined;
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
