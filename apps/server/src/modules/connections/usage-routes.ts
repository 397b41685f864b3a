import { getDescriptor } from "@ep/connectors";
import { type ConnectionUsage, connectionUsageSchema, envelopeSchema } from "@ep/contracts";
import { engineSchema, monthUsage } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";

const tags = ["Settings"];
type ConnectionRow = typeof engineSchema.connections.$inferSelect;

/** This month's billable calls of a metered connection; null for a system that does not meter. */
async function usageOf(ctx: AppContext, row: ConnectionRow): Promise<ConnectionUsage | null> {
  // Marketplace channels are not metered systems.
  if (row.kind === "channel") return null;
  const systems = row.kind === "shop" ? "shop" : "erp";
  const policy = getDescriptor(systems, row.systemType)?.metering;
  if (!policy) return null;
  const descriptor = getDescriptor(systems, row.systemType);
  const u = await monthUsage(ctx.database.db, row.id, ctx.clock.now());
  const quota = policy.monthlyQuota ?? null;
  return {
    connectionId: row.id,
    connectionType: row.kind === "shop" ? "ecommerce" : row.kind,
    system: descriptor?.system ?? "",
    month: u.month,
    kind: policy.kind,
    used: u.total,
    credits: policy.creditPerCall ? (u.total.read + u.total.write) * policy.creditPerCall : null,
    unit: policy.unit ?? null,
    quota,
    remaining: quota
      ? { read: Math.max(0, quota.read - u.total.read), write: Math.max(0, quota.write - u.total.write) }
      : null,
  };
}

/** Metered connections' use this month, for the connection cards; scoped to the caller's company. */
export function connectionUsageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook("onRequest", requireCompanyUser(ctx));
    const { connections } = engineSchema;

    app.get(
      "/api/settings/connection-usage",
      { schema: { tags, response: { 200: envelopeSchema(z.array(connectionUsageSchema)) } } },
      async (request) => {
        const rows = await ctx.database.db
          .select()
          .from(connections)
          .where(eq(connections.companyId, companyOf(request)));
        const out: ConnectionUsage[] = [];
        for (const r of rows) {
          const u = await usageOf(ctx, r);
          if (u) out.push(u);
        }
        return ok(out);
      },
    );

    app.get(
      "/api/settings/connection-usage/:connectionId",
      {
        schema: {
          tags,
          params: z.object({ connectionId: z.coerce.number().int().positive().max(2_147_483_647) }),
          response: { 200: envelopeSchema(connectionUsageSchema.nullable()) },
        },
      },
      async (request) => {
        const [row] = await ctx.database.db
          .select()
          .from(connections)
          .where(
            and(
              eq(connections.id, request.params.connectionId),
              eq(connections.companyId, companyOf(request)),
            ),
          );
        // Another company's connection is as unknown as a missing one.
        if (!row) throw AppError.notFound();
        return ok(await usageOf(ctx, row));
      },
    );
  };
}
