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

/** Reads the bearer token and checks its session row: a revoked or expired session gets 401. */
export async function resolveAuth(ctx: AppContext, request: FastifyRequest): Promise<AuthInfo | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return null;
  const claims = await ctx.tokens.verify(header.slice(7).trim());
  if (!claims) return null;
  const [session] = await ctx.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.userId, claims.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, ctx.clock.now()),
      ),
    );
  return session ? claims : null;
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
