import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { AppContext } from "../../platform/context.ts";
import { pingDatabase } from "../../platform/db/database.ts";
import { AppError, failure } from "../../platform/http/envelope.ts";
import { metricsRegistry } from "../../platform/http/metrics.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when the request may read /metrics (config.metrics); the token compares in constant time. */
export function metricsAllowed(access: AppContext["config"]["metrics"], request: FastifyRequest): boolean {
  if (access === "open") return true;
  if (access === "off") return false;
  const header = request.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  return timingSafeEqual(digest(given), digest(access.token));
}

/** `/health` for load balancers (database and queue reachable) and `/metrics` for Prometheus. */
export function healthRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get("/health", { schema: { hide: true } }, async (_request, reply) => {
      const checks = { database: "ok", queue: "ok" };
      await pingDatabase(ctx.database).catch(() => {
        checks.database = "down";
      });
      await ctx.queue.ping().catch(() => {
        checks.queue = "down";
      });
      const healthy = checks.database === "ok" && checks.queue === "ok";
      return reply.status(healthy ? 200 : 503).send({ status: healthy ? "ok" : "down", ...checks });
    });

    app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
      if (!metricsAllowed(ctx.config.metrics, request)) {
        // Off (PostgreSQL without METRICS_TOKEN): as if there were no such endpoint.
        if (ctx.config.metrics === "off") return reply.status(404).send(failure(AppError.notFound()));
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        return reply.status(401).send(failure(AppError.unauthorized()));
      }
      reply.header("content-type", metricsRegistry.contentType);
      return metricsRegistry.metrics();
    });
  };
}
