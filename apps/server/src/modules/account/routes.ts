import {
  accountSchema,
  envelopeSchema,
  forgotPasswordSchema,
  lineInput,
  loginByRowIdSchema,
  loginResultSchema,
  loginSchema,
  registerFields,
  resetPasswordSchema,
  textInput,
  updateAccountSchema,
  updateCompanySchema,
  updatePasswordSchema,
} from "@ep/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser, requireUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { AccountService } from "./service.ts";

// The server checks the address itself so it can answer with the spec's codes 119 and 120.
const registerBody = z.object({
  ...registerFields,
  email: lineInput({ error: "validation.emailRequired" })
    .trim()
    .min(1, { error: "validation.emailRequired" }),
});

/** Some calls carry their fields in the query string (spec section 7); treat them like a body. */
function queryAsBody(rename: Record<string, string>) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, string | undefined>;
    const body = (request.body && typeof request.body === "object" ? request.body : {}) as Record<
      string,
      unknown
    >;
    for (const [from, to] of Object.entries(rename)) {
      if (body[to] === undefined && query[from] !== undefined) body[to] = query[from];
    }
    request.body = body;
  };
}

const meta = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers["user-agent"] ?? "",
});
const tags = ["Account"];

export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new AccountService(ctx);
    const signedIn = requireUser(ctx);
    const companyUser = requireCompanyUser(ctx);

    app.post(
      "/api/account/register",
      { schema: { tags, body: registerBody, response: { 200: envelopeSchema(accountSchema) } } },
      async (request) => ok(await service.register(request.body, meta(request)), "api.registered"),
    );

    app.post(
      "/api/account/login",
      { schema: { tags, body: loginSchema, response: { 200: envelopeSchema(loginResultSchema) } } },
      async (request) => ok(await service.login(request.body, meta(request))),
    );

    // `level=hard` after the sign-in answered 130 with captchaLevel "hard" (repeated failures).
    app.get(
      "/api/account/captcha-challenge",
      { schema: { tags, querystring: z.object({ level: z.enum(["normal", "hard"]).optional() }) } },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        return ctx.captcha.challenge(request.query.level ?? "normal");
      },
    );

    app.post("/api/account/logout", { schema: { tags }, onRequest: signedIn }, async (request) => {
      await service.logout(authOf(request).sessionId);
      return ok(null, "api.loggedOut");
    });

    app.post(
      "/api/account/login-by-rowId",
      { schema: { tags, body: loginByRowIdSchema, response: { 200: envelopeSchema(loginResultSchema) } } },
      async (request) => ok(await service.loginByCode(request.body.rowId, meta(request))),
    );

    app.post("/api/account/login-code", { schema: { tags }, onRequest: signedIn }, async (request) =>
      ok(await service.issueLoginCode(authOf(request).userId)),
    );

    app.get(
      "/api/Account",
      { schema: { tags, response: { 200: envelopeSchema(accountSchema) } }, onRequest: signedIn },
      async (request) => ok(await service.getAccount(authOf(request).userId)),
    );

    app.put(
      "/api/Account",
      {
        schema: { tags, body: updateAccountSchema, response: { 200: envelopeSchema(accountSchema) } },
        onRequest: signedIn,
      },
      async (request) =>
        ok(await service.updateProfile(authOf(request).userId, request.body), "api.profileUpdated"),
    );

    app.put(
      "/api/Account/company",
      {
        schema: { tags, body: updateCompanySchema, response: { 200: envelopeSchema(accountSchema) } },
        onRequest: companyUser,
      },
      async (request) =>
        ok(
          await service.updateCompany(authOf(request).userId, companyOf(request), request.body),
          "api.companyUpdated",
        ),
    );

    app.post(
      "/api/account/recover-password",
      { schema: { tags, querystring: forgotPasswordSchema } },
      async (request) => {
        await service.recoverPassword(request.query.email, request.ip);
        return ok(null, "api.recoverMailSent");
      },
    );

    app.post(
      "/api/account/check-row-id",
      {
        schema: {
          tags,
          querystring: z.object({ rowid: textInput().optional(), rowId: textInput().optional() }),
        },
      },
      async (request) => {
        const rowid = request.query.rowid ?? request.query.rowId ?? "";
        if (!rowid || !(await service.checkResetCode(rowid))) throw new AppError(404, "api.resetLinkInvalid");
        return ok(null);
      },
    );

    app.post(
      "/api/account/reset-password",
      {
        schema: { tags, body: resetPasswordSchema },
        preValidation: queryAsBody({
          rowId: "rowid",
          rowid: "rowid",
          password: "newPassword",
          confirmPassword: "confirmPassword",
        }),
      },
      async (request) => {
        await service.resetPassword(request.body.rowid, request.body.newPassword);
        return ok(null, "api.passwordReset");
      },
    );

    app.post(
      "/api/Account/update-password",
      {
        schema: { tags, body: updatePasswordSchema },
        onRequest: signedIn,
        preValidation: queryAsBody({
          oldPassword: "oldPassword",
          password: "password",
          confirmPassword: "confirmPassword",
        }),
      },
      async (request) => {
        const auth = authOf(request);
        await service.updatePassword(
          auth.userId,
          auth.sessionId,
          request.body.oldPassword,
          request.body.password,
        );
        return ok(null, "api.passwordUpdated");
      },
    );
  };
}
