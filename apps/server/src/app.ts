import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { accountRoutes } from "./modules/account/routes.ts";
import { activityRoutes } from "./modules/activities/routes.ts";
import { agentRoutes } from "./modules/agents/routes.ts";
import { agentUpdateRoutes } from "./modules/agents/updates.ts";
import { channelListingRoutes } from "./modules/channels/listing-routes.ts";
import { channelRoutes } from "./modules/channels/routes.ts";
import { configRoutes } from "./modules/config/routes.ts";
import { connectionCheckRoutes, connectionCheckSupportRoutes } from "./modules/connection-check/routes.ts";
import { sqlPreviewRoutes } from "./modules/connections/sql-preview-routes.ts";
import { connectionUsageRoutes } from "./modules/connections/usage-routes.ts";
import { invalidateDashboardOnWrites } from "./modules/dashboard/dashboard-cache.ts";
import { dashboardRoutes } from "./modules/dashboard/routes.ts";
import { erpMatchingRoutes } from "./modules/erp-matching/routes.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { invoiceCompanyRoutes, invoicePublicRoutes } from "./modules/invoices/routes.ts";
import { jobRoutes } from "./modules/jobs/routes.ts";
import { licenseRoutes } from "./modules/license/routes.ts";
import { notificationRoutes } from "./modules/notifications/routes.ts";
import { partnerInstallRoutes } from "./modules/partner-install/routes.ts";
import { privacyRoutes } from "./modules/privacy/routes.ts";
import { reportRoutes } from "./modules/reports/routes.ts";
import { retentionRoutes } from "./modules/retention/routes.ts";
import { sandboxMounts, sandboxRoutes } from "./modules/sandbox/routes.ts";
import { settingsRoutes } from "./modules/settings/routes.ts";
import { supportRoutes } from "./modules/support/routes.ts";
import { ticketRoutes } from "./modules/tickets/routes.ts";
import { webhookRoutes } from "./modules/webhooks/routes.ts";
import { claimedCompany } from "./platform/http/auth.ts";
import { AppError, failure } from "./platform/http/envelope.ts";
import { installErrorHandling, MALFORMED_JSON } from "./platform/http/error-handler.ts";
import { FAIRNESS_DEFAULTS, fairness } from "./platform/http/fairness.ts";
import { installSecurityHeaders, serverOptions } from "./platform/http/hardening.ts";
import { installMetrics } from "./platform/http/metrics.ts";
import { webStaticOptions } from "./platform/http/web-static.ts";
import type { ServerContext } from "./server-context.ts";

const webDist = resolve(dirname(fileURLToPath(import.meta.url)), "../../web/dist");

/** Every domain area is one encapsulated plugin; adding an area is adding one line here. */
const modules = [
  configRoutes,
  accountRoutes,
  licenseRoutes,
  jobRoutes,
  activityRoutes,
  notificationRoutes,
  dashboardRoutes,
  reportRoutes,
  settingsRoutes,
  connectionUsageRoutes,
  sqlPreviewRoutes,
  erpMatchingRoutes,
  ticketRoutes,
  supportRoutes,
  connectionCheckRoutes,
  connectionCheckSupportRoutes,
  privacyRoutes,
  retentionRoutes,
  sandboxRoutes,
  sandboxMounts,
  channelRoutes,
  channelListingRoutes,
  agentRoutes,
  agentUpdateRoutes,
  partnerInstallRoutes,
  invoicePublicRoutes,
  invoiceCompanyRoutes,
  webhookRoutes,
];

/** Fastify's "incoming request" line moves to debug: the "request completed" line says it all. */
class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, "incoming request");
  }
}

/** Heavy work (exports, reports, previews, uploads): fewer of a company's calls at once (fairness.ts). */
export const HEAVY_ROUTES = [
  "/api/SalesReport",
  "/api/SalesReport/export",
  "/api/invoices/export",
  "/api/privacy/export",
  "/api/settings/preview/:jobType",
  "/api/settings/sql-preview/:connectionId",
  "/api/settings/file-import/:connectionId/:kind",
  // Calls to the company's own systems (a connection's save and test, the sandbox's): seconds of waiting
  // on the far side, not CPU, but they must not hold the slot every other screen of the company needs.
  "/api/settings/connection-setting-update/:connectionType/:productType",
  "/api/APIConnection/:connectionType/:x",
  "/api/sandbox/connect",
  "/api/settings/connection-check",
  "/api/channels",
  "/api/channels/:id/test",
  "/api/channels/:id/categories",
  "/api/channels/:id/categories/:categoryId/attributes",
  "/api/channels/:id/brands",
  "/api/channels/:id/category-mappings",
];
/** Calls that wait for news rather than work (capped per company on their own): outside fairness. */
export const WAITING_ROUTES = ["/api/JobHistory/do-long-polling"];

export async function buildApp(
  ctx: ServerContext,
  options: { /** The built web app (tests point elsewhere). */ webDist?: string } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // The spec mixes /api/account/… and /api/Account/…: paths match without regard to case.
    // maxParamLength: comma-separated lists in a path ({types}, {keys}) run past the default 100.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 1000 },
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 12 * 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    // One line per request (its completion), not Fastify's two.
    logController: new OneLinePerRequest(),
    ...serverOptions(ctx.config),
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // A POST without a body but with a JSON content type (the spec's query-string calls) is no error.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error("Invalid JSON body"), { statusCode: 400, code: MALFORMED_JSON });
      done(error, undefined);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  invalidateDashboardOnWrites(app, ctx);
  installMetrics(app);
  await installSecurityHeaders(app, ctx.config);

  await app.register(swagger, {
    openapi: { info: { title: "Entegrasyon Paneli API", version: "1.0.0" } },
    transform: jsonSchemaTransform,
  });
  // No validator badge: it is an image from swagger.io, which the CSP refuses.
  await app.register(swaggerUi, { routePrefix: "/api/docs", uiConfig: { validatorUrl: null } });

  await app.register(healthRoutes(ctx));
  if (ctx.config.fairness)
    await app.register(fairness, {
      ...FAIRNESS_DEFAULTS,
      heavyRoutes: HEAVY_ROUTES,
      exemptRoutes: WAITING_ROUTES,
      companyOf: (request) => claimedCompany(ctx, request),
    });
  for (const module of modules) await app.register(module(ctx));

  const web = options.webDist ?? webDist;
  const hasWeb = existsSync(resolve(web, "index.html"));
  if (hasWeb) await app.register(fastifyStatic, webStaticOptions(web));
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.toLowerCase().startsWith("/api") || !hasWeb || request.method !== "GET") {
      return reply.status(404).send(failure(AppError.notFound()));
    }
    // SPA fallback: the web app's router decides what this path shows.
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html");
  });
  return app;
}
