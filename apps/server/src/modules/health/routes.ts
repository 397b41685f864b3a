import type { FastifyPluginAsync } from "fastify";
import type { AppContext } from "../../platform/context.ts";
import { pingDatabase } from "../../platform/db/database.ts";
import { metricsRegistry } from "../../platform/http/metrics.ts";

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

    app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
      reply.header("content-type", metricsRegistry.contentType);
      return metricsRegistry.metrics();
    });
  };
}
