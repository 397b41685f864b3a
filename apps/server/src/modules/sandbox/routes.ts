import { getDescriptor, mountEmulators } from "@ep/connectors";
import {
  connectionTypeSchema,
  envelopeSchema,
  type SandboxConnectResult,
  type SandboxSystemInfo,
  sandboxConnectRequestSchema,
  sandboxConnectResultSchema,
  sandboxSystemSchema,
} from "@ep/contracts";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companies } from "../../platform/db/schema.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { ChannelService } from "../channels/service.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import { issuesInvoices } from "../invoices/route.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { ConnectionService } from "../settings/connection-service.ts";
import { DRILL_HEADER, type WithSandbox } from "./hub.ts";
import { type SandboxSystem, sandboxFor } from "./registry.ts";

const tags = ["Sandbox"];

/** The built-in systems themselves, one mount per registry entry: `/sandbox/{system}/{tenant}/…`. */
export function sandboxMounts(ctx: AppContext & WithSandbox): FastifyPluginAsync {
  return async (app) => {
    // The emulated systems' APIs are not ours: they stay out of our OpenAPI document.
    app.addHook("onRoute", (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    // A drill armed by "POST /api/sandbox/drift" changes one answer's shape on its way out.
    app.addHook("onSend", async (request, _reply, payload) => {
      const mark = request.headers[DRILL_HEADER];
      if (typeof mark !== "string") return payload;
      const text = Buffer.isBuffer(payload)
        ? payload.toString("utf8")
        : typeof payload === "string"
          ? payload
          : undefined;
      if (text === undefined) return payload;
      return ctx.sandbox.drifted(request.url, text, mark) ?? payload;
    });
    for (const system of [...ctx.sandbox.systems, ...ctx.sandbox.channelSystems]) {
      await mountEmulators(app, {
        prefix: `/sandbox/${system.system}`,
        resolve: (tenant) => ctx.sandbox.app(system.system, tenant),
        logLevel: "warn",
      });
    }
  };
}

const info = (
  ctx: AppContext & WithSandbox,
  system: SandboxSystem,
  companyId: number,
): SandboxSystemInfo => ({
  connectionType: system.kind === "erp" ? "erp" : "ecommerce",
  productType: system.type,
  name: getDescriptor(system.kind, system.type)?.name ?? system.system,
  credentials: ctx.sandbox.credentials(system, companyId),
});

/** The company's side of the sandboxes: its logins, and connecting both sides in one click. */
export function sandboxRoutes(ctx: AppContext & WithEngine & WithSandbox): FastifyPluginAsyncZod {
  return async (app) => {
    const connections = new ConnectionService(ctx);
    app.addHook("onRequest", requireCompanyUser(ctx));

    app.get(
      "/api/sandbox",
      { schema: { tags, response: { 200: envelopeSchema(z.array(sandboxSystemSchema)) } } },
      async (request) =>
        ok(
          ctx.sandbox.systems.flatMap((s) => {
            const one = info(ctx, s, companyOf(request));
            // A sandbox e-invoice service is offered for the third connection too.
            return s.kind === "erp" && issuesInvoices(s.type)
              ? [one, { ...one, connectionType: "einvoice" as const }]
              : [one];
          }),
        ),
    );

    app.post(
      "/api/sandbox/connect",
      {
        schema: {
          tags,
          body: sandboxConnectRequestSchema,
          response: { 200: envelopeSchema(sandboxConnectResultSchema) },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        const [company] = await ctx.database.db
          .select({ erpType: companies.erpType, ecommerceType: companies.ecommerceType })
          .from(companies)
          .where(eq(companies.id, companyId));
        if (!company) throw AppError.notFound();
        // The systems of the registration where a sandbox exists, otherwise the first of each kind.
        const pick = (kind: "erp" | "shop", registered: number) => {
          const of = ctx.sandbox.systems.filter((s) => s.kind === kind);
          return of.find((s) => s.type === registered) ?? of[0]!;
        };
        const userId = authOf(request).userId;
        const erpSystem = pick("erp", company.erpType);
        const shopSystem = pick("shop", company.ecommerceType);
        const save = (kind: "erp" | "ecommerce", system: typeof erpSystem) =>
          connections.save(companyId, userId, kind, system.type, ctx.sandbox.credentials(system, companyId));
        const erp = await save("erp", erpSystem);
        const shop = await save("ecommerce", shopSystem);
        const result: SandboxConnectResult = {
          erp: erp.connection,
          ecommerce: shop.connection,
          jobsReady: shop.jobsReady,
        };
        // The marketplace sandboxes asked for join as sales channels, each with its own jobs.
        const wanted = request.body?.channels ?? [];
        let channelsOk = true;
        if (wanted.length > 0) {
          const channelService = new ChannelService(ctx);
          result.channels = [];
          for (const system of ctx.sandbox.channelSystems.filter((s) => wanted.includes(s.system))) {
            const c = await channelService.add(
              companyId,
              userId,
              system.system,
              ctx.sandbox.credentials(system, companyId),
            );
            const ok = c.lastTest?.ok ?? false;
            channelsOk &&= ok;
            result.channels.push({ id: c.id, system: c.system, name: c.name, ok, jobsReady: c.jobsReady });
          }
        }
        const bothOk = erp.connection.lastTest?.ok && shop.connection.lastTest?.ok && channelsOk;
        return ok(result, bothOk ? "sandbox.connected" : "sandbox.connectFailed");
      },
    );

    // A vendor-change drill on the company's own sandbox (issue 36): the next answer of one read loses a
    // key, so "Bağlantıyı doğrula" shows what a vendor's silent change looks like. Own sandbox only.
    app.post(
      "/api/sandbox/drift",
      {
        schema: {
          tags,
          body: z.object({ connectionType: connectionTypeSchema }),
          response: { 200: envelopeSchema(z.object({ operation: z.string() })) },
        },
      },
      async (request) => {
        // The caller's company only (the body names no company or connection); its saved connection of
        // that side must be its own sandbox login now, so the drill never reaches a real system.
        const companyId = companyOf(request);
        if (request.body.connectionType === "einvoice") throw AppError.notFound();
        const kind = request.body.connectionType === "erp" ? "erp" : "shop";
        const row = await findConnection(ctx.database.db, companyId, kind);
        const own =
          row?.isEmulated &&
          ctx.sandbox.owns(companyId, kind, row.systemType, openCredentials(ctx.credentials, row));
        const system = row && own ? sandboxFor(kind, row.systemType) : undefined;
        if (!system) throw new AppError(409, "sandbox.driftNoSandbox");
        const operation = ctx.sandbox.armDrift(system, companyId);
        if (!operation) throw AppError.notFound();
        return ok({ operation });
      },
    );
  };
}
