import { CHECK_DRIFTS, type OperationResult } from "@ep/connectors";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { connectionChecks } from "../src/modules/connection-check/schema.ts";
import { SANDBOX_SYSTEMS, type SandboxSystem } from "../src/modules/sandbox/registry.ts";
import { createSupportUser } from "../src/modules/support/create-support-user.ts";
import { mailMessages } from "../src/platform/db/schema.ts";
import { call, registerAndLogin } from "./harness.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("connection-check");

const erps = SANDBOX_SYSTEMS.filter((s) => s.kind === "erp");
const shops = SANDBOX_SYSTEMS.filter((s) => s.kind === "shop");
const SUPPORT = { email: "destek@check.test", password: "Destek.Parola1" };

type Company = { token: string; companyId: number; erp: SandboxSystem; shop: SandboxSystem };
type View = { operation: string; status: string; statusText: string; messages: string[] };

const companies: Company[] = [];
let supportToken: string;

async function connected(app: FastifyInstance, erp: SandboxSystem, shop: SandboxSystem): Promise<Company> {
  const a = await registerAndLogin(app, { erpType: erp.type, ecommerceType: shop.type });
  const res = await call(app, "POST", "/api/sandbox/connect", { token: a.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: a.token, companyId: a.account.company.id as number, erp, shop };
}

/** The stored check of a side (the reasons a read was not tried are kept there, not shown). */
async function stored(companyId: number, kind: "erp" | "shop") {
  const [row] = await server.ctx.database.db
    .select()
    .from(connectionChecks)
    .where(and(eq(connectionChecks.companyId, companyId), eq(connectionChecks.kind, kind)));
  return row!;
}

async function waitRun(token: string, runId: number) {
  let run: { status: string } | undefined;
  for (let i = 0; i < 1200 && (!run || run.status === "Queued" || run.status === "Running"); i++) {
    await new Promise((r) => setTimeout(r, 100));
    run = (await call(server.app, "GET", `/api/JobHistory/report/${runId}`, { token })).body.data;
  }
  return run as { status: string } & Record<string, unknown>;
}

beforeAll(async () => {
  // One company per pair of sandbox systems: every ERP and every shop is connected at least once.
  for (let i = 0; i < Math.max(erps.length, shops.length); i++)
    companies.push(await connected(server.app, erps[i % erps.length]!, shops[i % shops.length]!));
  await createSupportUser(server.ctx.database.db, SUPPORT);
  const login = await call(server.app, "POST", "/api/account/login", { body: SUPPORT, ip: "10.7.0.9" });
  supportToken = login.body.data.token;
}, 600_000);

describe("the connection check against every sandbox system", () => {
  it("ran on saving each connection and finds every read compatible (a read the system lacks: not tried, said why)", async () => {
    const table: string[] = [];
    for (const c of companies) {
      for (const kind of ["erp", "shop"] as const) {
        const row = await stored(c.companyId, kind);
        const ops = row.operations as OperationResult[];
        expect(row.trigger).toBe("save");
        expect(ops.length).toBeGreaterThan(0);
        for (const op of ops) {
          expect([op.status, op.untriedReason ?? ""], `${row.system} ${op.operation}`).toSatisfy(
            ([s, why]) => s === "ok" || (s === "untried" && why === "unsupported"),
          );
        }
        if (row.system === "dia" || row.system === "logo-isbasi")
          expect(row.calls, row.system).toBeLessThanOrEqual(row.plannedCalls);
        table.push(`| ${row.system} | ${ops.length} | ${row.plannedCalls} | ${row.calls} |`);
      }
    }
    console.log(["| system | reads | said | sent |", ...new Set(table)].join("\n"));
  });

  it("finds one drifted answer per sandbox system: that read 'uyumsuz' in Turkish, naming what will not work", async () => {
    for (const c of companies) {
      for (const [side, system] of [
        ["erp", c.erp],
        ["ecommerce", c.shop],
      ] as const) {
        const drift = CHECK_DRIFTS[system.system];
        if (!drift) continue;
        const armed = await call(server.app, "POST", "/api/sandbox/drift", {
          token: c.token,
          body: { connectionType: side },
        });
        expect(armed.status, system.system).toBe(200);
        const res = await call(server.app, "POST", "/api/settings/connection-check", {
          token: c.token,
          body: { connectionType: side },
        });
        expect(res.status).toBe(200);
        const ops = res.body.data[side].operations as View[];
        const drifted = ops.filter((o) => o.status === "drift");
        expect(
          drifted.map((o) => o.operation),
          `${system.system}: ${JSON.stringify(ops)}`,
        ).toEqual([drift.operation]);
        expect(drifted[0]!.statusText).toBe("uyumsuz");
        expect(drifted[0]!.messages.join(" ")).toMatch(/Çalışmayacak: .*(Aktarımı|Güncelleme)/);
        // Checked again, the vendor's answer is back to its shape.
        const again = await call(server.app, "POST", "/api/settings/connection-check", {
          token: c.token,
          body: { connectionType: side },
        });
        expect((again.body.data[side].operations as View[]).some((o) => o.status === "drift")).toBe(false);
      }
    }
  }, 600_000);

  it("groups the differences across companies for support, shapes without values, and tells support at two companies", async () => {
    const res = await call(server.app, "GET", "/api/support/connection-checks", { token: supportToken });
    expect(res.status).toBe(200);
    const groups = res.body.data as Array<Record<string, unknown>>;
    const ikas = groups.find((g) => g.system === "ikas" && g.operation === "orders");
    // IKAS is the shop of several companies here: one group, their count, support told once.
    expect(ikas).toMatchObject({ rule: "model.order.currency", notified: true });
    expect(ikas!.companies as number).toBeGreaterThanOrEqual(2);
    expect(ikas!.verified).toBe("packages/connectors/src/ikas/VERIFIED.md");
    const dia = groups.find((g) => g.system === "dia" && g.rule === "model.product.sku");
    expect(dia).toMatchObject({ companies: 1, notified: false });
    expect(JSON.stringify(dia!.sample)).not.toMatch(/STK-|\d{4,}/);
    const mails = await server.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, SUPPORT.email));
    expect(mails.filter((m) => m.subject.includes("ikas Siparişler"))).toHaveLength(1);
    // Support's view only: a company's token is refused.
    const company = await call(server.app, "GET", "/api/support/connection-checks", {
      token: companies[0]!.token,
    });
    expect(company.status).toBe(403);
  });

  it("holds a first sync while a read it needs is 'uyumsuz', until the merchant chooses to go on", async () => {
    const c = await connected(server.app, erps[0]!, shops[0]!);
    await call(server.app, "POST", "/api/sandbox/drift", { token: c.token, body: { connectionType: "erp" } });
    const checked = await call(server.app, "POST", "/api/settings/connection-check", {
      token: c.token,
      body: { connectionType: "erp" },
    });
    expect(checked.body.data.firstSyncHeld).toBe(true);
    const jobs = await call(server.app, "GET", "/api/Job/type-filter/ProductIntegration", { token: c.token });
    const jobId = jobs.body.data[0].id;
    const first = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token: c.token });
    const held = await waitRun(c.token, first.body.data.runId);
    expect(held.status).toBe("Failed");
    expect(JSON.stringify(held)).toContain(
      "İlk aktarım bekletildi: bağlantı doğrulamasında ürünler uyumsuz çıktı.",
    );
    // Another company's "go on" does not release this one.
    await call(server.app, "POST", "/api/settings/connection-check/proceed", { token: companies[0]!.token });
    expect(
      (await call(server.app, "GET", "/api/settings/connection-check", { token: c.token })).body.data
        .firstSyncHeld,
    ).toBe(true);
    const proceed = await call(server.app, "POST", "/api/settings/connection-check/proceed", {
      token: c.token,
    });
    expect(proceed.body.data.firstSyncHeld).toBe(false);
    const second = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token: c.token });
    expect((await waitRun(c.token, second.body.data.runId)).status).toBe("Succeeded");
  }, 240_000);
});
