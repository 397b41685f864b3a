import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  envelopeSchema,
  isMessageKey,
  lineInput,
  type MessageKey,
  message,
  partnerEntry,
} from "@ep/contracts";
import fastifyCookie from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { hit, secondsUntilBelow } from "../../platform/security/throttle.ts";
import { PartnerEntryService } from "./entries.ts";
import { IdeasoftInstallService } from "./ideasoft.ts";
import { LogoSignOnService } from "./logo.ts";
import { InstallError } from "./provisioning.ts";

const tags = ["Partner install"];
const productParams = z.object({ product: z.string().min(1).max(40) });

/**
 * OAuth `state` bound to the browser that started the install: the authorize call sets this cookie
 * (HttpOnly, SameSite=Lax, signed, only sent to these routes) holding the state's hash, and the
 * callback must bring the same state from the same browser. A victim sent to the landing page with an
 * attacker's code and state has no such cookie, so nothing is installed into the attacker's company.
 */
const STATE_COOKIE = "ep_oauth_state";
const STATE_COOKIE_PATH = "/api/partner-install";
const STATE_TTL_SECONDS = 15 * 60;

const stateHash = (state: string) => createHash("sha256").update(state, "utf8").digest("base64url");

function bindState(ctx: AppContext, reply: FastifyReply, state: string): void {
  reply.setCookie(STATE_COOKIE, stateHash(state), {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.config.publicUrl.startsWith("https://"),
    path: STATE_COOKIE_PATH,
    maxAge: STATE_TTL_SECONDS,
    signed: true,
  });
}

/** Whether the callback's state is the one this browser's cookie holds; the cookie is spent either way. */
function stateMatches(request: FastifyRequest, reply: FastifyReply, state: string | undefined): boolean {
  const raw = request.cookies[STATE_COOKIE];
  reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
  if (!raw || !state) return false;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return false;
  const expected = Buffer.from(unsigned.value);
  const given = Buffer.from(stateHash(state));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * An install failure in the envelope: `data.errorCode` is the spec's code for the dialog's title,
 * `data.cause` says in the merchant's words what went wrong and what to do (when we know it).
 */
function asAppError(error: unknown, log: (e: unknown) => void, product = "ideasoft"): AppError {
  if (error instanceof AppError) return error;
  const code = error instanceof InstallError ? error.code : "system_exception";
  log(error);
  const key = `partnerInstall.causes.${code}`;
  const system = partnerEntry(product)?.name ?? product;
  const details = error instanceof InstallError ? error.details : {};
  return new AppError(400, "api.partnerInstallFailed", 400, {
    errorCode: code,
    ...(isMessageKey(key) ? { cause: message(key as MessageKey, { system, ...details }) } : {}),
  });
}

/**
 * Public calls of the partner landing screens: nobody is signed in yet. The install answers a one-time
 * sign-in code only, which `POST /api/account/login-by-rowId` turns into a session.
 */
export function partnerInstallRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const ideasoft = new IdeasoftInstallService(ctx);
    const logo = new LogoSignOnService(ctx);
    const entries = new PartnerEntryService(ctx);
    const companyUser = requireCompanyUser(ctx);
    await app.register(fastifyCookie, { secret: ctx.tokens.cookieSecret });

    app.post(
      "/api/partner-install/ideasoft",
      {
        schema: {
          tags,
          body: z.object({
            code: lineInput().min(1).max(500),
            domain: lineInput().min(1).max(253),
            state: lineInput().max(200).optional(),
          }),
          response: { 200: envelopeSchema(z.object({ rowId: z.string(), created: z.boolean() })) },
        },
      },
      async (request, reply) => {
        try {
          if (!stateMatches(request, reply, request.body.state))
            throw new InstallError("state_mismatch", "OAuth state not started by this browser");
          return ok(await ideasoft.install(request.body));
        } catch (error) {
          throw asAppError(error, (e) => request.log.warn({ err: e }, "ideasoft install failed"));
        }
      },
    );

    // Logo's sign-on: the key from Logo's redirect and the İşbaşı user's e-mail and password.
    app.post(
      "/api/partner-install/logo",
      {
        schema: {
          tags,
          body: z.object({
            apiKey: lineInput().min(1).max(200),
            username: lineInput().min(3).max(100),
            password: z.string().min(1).max(100),
            tenantId: lineInput().max(50).optional(),
          }),
          response: { 200: envelopeSchema(z.object({ rowId: z.string(), created: z.boolean() })) },
        },
      },
      async (request) => {
        // Each attempt is a password check at İşbaşı: limit it as our own sign-in is limited.
        await limitLogoSignOn(ctx, request.ip, request.body.username);
        try {
          return ok(await logo.signOn(request.body));
        } catch (error) {
          throw asAppError(error, (e) => request.log.warn({ err: e }, "logo sign-on failed"));
        }
      },
    );

    // `/{product}-auth` signed in: the merchant confirmed connecting the store to their company.
    app.post(
      "/api/partner-install/:product/start",
      {
        onRequest: companyUser,
        schema: {
          tags,
          params: productParams,
          body: z.object({ store: lineInput().max(253).optional() }),
          response: { 200: envelopeSchema(z.object({ url: z.string(), external: z.boolean() })) },
        },
      },
      async (request, reply) => {
        const { product } = request.params;
        try {
          const state = randomBytes(16).toString("base64url");
          const out = await entries.start(companyOf(request), product, request.body.store ?? "", state);
          if (out.external) bindState(ctx, reply, state);
          return ok(out);
        } catch (error) {
          throw asAppError(
            error,
            (e) => request.log.warn({ err: e, product }, "partner start failed"),
            product,
          );
        }
      },
    );

    // The consent page's answer on `/{product}-auth`: tokens stored on the caller's company.
    app.post(
      "/api/partner-install/:product/connect",
      {
        onRequest: companyUser,
        schema: {
          tags,
          params: productParams,
          body: z.object({
            store: lineInput().max(253),
            code: lineInput().min(1).max(500),
            state: lineInput().max(200).optional(),
            query: z.record(z.string().max(100), z.string().max(2000)).optional(),
          }),
          response: { 200: envelopeSchema(z.object({ system: z.string(), store: z.string() })) },
        },
      },
      async (request, reply) => {
        const { product } = request.params;
        try {
          if (!stateMatches(request, reply, request.body.state))
            throw new InstallError("state_mismatch", "OAuth state not started by this browser");
          const { store, code, query } = request.body;
          return ok(await entries.connect(companyOf(request), product, { store, code, query: query ?? {} }));
        } catch (error) {
          throw asAppError(
            error,
            (e) => request.log.warn({ err: e, product }, "partner connect failed"),
            product,
          );
        }
      },
    );

    app.get(
      "/api/partner-install/ideasoft/authorize",
      {
        schema: {
          tags,
          querystring: z.object({ domain: lineInput().min(1).max(253) }),
          response: { 200: envelopeSchema(z.object({ url: z.string(), state: z.string() })) },
        },
      },
      async (request, reply) => {
        try {
          const state = randomBytes(16).toString("base64url");
          bindState(ctx, reply, state);
          return ok({ url: ideasoft.authorizeUrl(request.query.domain, state), state });
        } catch (error) {
          throw asAppError(error, (e) => request.log.warn({ err: e }, "ideasoft authorize failed"));
        }
      },
    );
  };
}

const LOGO_SIGN_ON_WINDOW_MS = 15 * 60_000;
const LOGO_SIGN_ON_PER_ADDRESS = 20;
const LOGO_SIGN_ON_PER_USER = 10;

/** Sliding-window limits per client address and per İşbaşı user (shared by every API process). */
async function limitLogoSignOn(ctx: AppContext, ip: string, username: string) {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const user = username.trim().toLowerCase();
  for (const [bucket, key, limit] of [
    ["logo-sign-on:address", ip, LOGO_SIGN_ON_PER_ADDRESS],
    ["logo-sign-on:user", user, LOGO_SIGN_ON_PER_USER],
  ] as const) {
    if ((await hit(db, bucket, key, now, LOGO_SIGN_ON_WINDOW_MS)) > limit) {
      const wait = await secondsUntilBelow(db, bucket, key, now, LOGO_SIGN_ON_WINDOW_MS, limit);
      throw AppError.tooMany("api.tooManyLoginAttempts", wait);
    }
  }
}
