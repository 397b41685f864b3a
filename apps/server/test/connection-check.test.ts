import { CHECK_DRIFTS, checkSpecOf, type OperationResult } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, eq, like, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { connectionChecks } from "../src/modules/connection-check/schema.ts";
import { ConnectionCheckService } from "../src/modules/connection-check/service.ts";
import {
  CONNECTION_CHECK_DAILY_CRON,
  CONNECTION_CHECK_DAILY_QUEUE,
  startConnectionCheckWorker,
} from "../src/modules/connection-check/workers.ts";
import {
  credentialPersister,
  findConnection,
  openCredentials,
} from "../src/modules/connections/repository.ts";
import { SANDBOX_SYSTEMS, type SandboxSystem } from "../src/modules/sandbox/registry.ts";
import { createSupportUser } from "../src/modules/support/create-support-user.ts";
import { mailMessages } from "../src/platform/db/schema.ts";
import { call, registerAndLogin } from "./harness.ts";
import { waitForRun } from "./support/job-run.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("connection-check");
const { notifications } = engineSchema;

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

/** Sent exactly what it said, or no more when a read it made is said at its most (`atMost`). */
function saidRight(row: {
  system: string;
  calls: number;
  plannedCalls: number;
  operations: unknown[];
}): boolean {
  const ops = (row.operations as OperationResult[]).map((o) => o.operation);
  const upTo = checkSpecOf(row.system).atMost?.some((op) => ops.includes(op));
  return upTo ? row.calls <= row.plannedCalls : row.calls === row.plannedCalls;
}

function waitRun(token: string, runId: number) {
  return waitForRun(server.app, token, runId);
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
        // Said beforehand, exactly: every sign-in, token and paging call is in the word it gives (a read
        // whose last call depends on the page is said at its most).
        expect(
          saidRight(row),
          `${row.system}: ${ops.map((o) => `${o.operation}:${o.calls}`).join(" ")}`,
        ).toBe(true);
        table.push(
          `| ${row.system} | ${ops.length} | ${row.plannedCalls} | ${row.calls} | ${ops.map((o) => `${o.operation}:${o.calls}`).join(" ")} |`,
        );
      }
    }
    console.log(["| system | reads | said | sent |", ...new Set(table)].join("\n"));
  });

  it("says exactly what it sends with one job enabled too (reads sharing a list pay for it once)", async () => {
    const db = server.ctx.database.db;
    const { jobs } = engineSchema;
    const wrong: string[] = [];
    for (const c of companies) {
      const before = await db.select().from(jobs).where(eq(jobs.companyId, c.companyId));
      for (const only of [
        "CategoryIntegration",
        "StockIntegration",
        "PriceIntegration",
        "OrderIntegration",
      ]) {
        await db
          .update(jobs)
          .set({ isEnabled: sql`${jobs.type} = ${only}` })
          .where(eq(jobs.companyId, c.companyId));
        const res = await call(server.app, "POST", "/api/settings/connection-check", { token: c.token });
        expect(res.status).toBe(200);
        for (const kind of ["erp", "shop"] as const) {
          const row = await stored(c.companyId, kind);
          const ops = (row.operations as OperationResult[]).map((o) => `${o.operation}:${o.calls}`).join(" ");
          if (!saidRight(row))
            wrong.push(`${row.system} ${only}: said ${row.plannedCalls}, sent ${row.calls} (${ops})`);
        }
      }
      for (const j of before) await db.update(jobs).set({ isEnabled: j.isEnabled }).where(eq(jobs.id, j.id));
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it("adds a DİA or İşbaşı check's billable calls to the month's usage, like a run's", async () => {
    const metered = companies.filter((c) => c.erp.system === "dia" || c.erp.system === "logo-isbasi");
    expect(metered.map((c) => c.erp.system).sort()).toEqual(["dia", "logo-isbasi"]);
    for (const c of metered) {
      const usage = async () => {
        const res = await call(server.app, "GET", "/api/settings/connection-usage", { token: c.token });
        const u = (
          res.body.data as Array<{ connectionType: string; used: { read: number; write: number } }>
        ).find((x) => x.connectionType === "erp")!;
        return u.used.read + u.used.write;
      };
      const before = await usage();
      const res = await call(server.app, "POST", "/api/settings/connection-check", {
        token: c.token,
        body: { connectionType: "erp" },
      });
      expect(res.status).toBe(200);
      const row = await stored(c.companyId, "erp");
      // DİA's login is free (descriptor's metering); every other call of the check is billed.
      const billable = row.calls - (c.erp.system === "dia" ? 1 : 0);
      expect(billable, c.erp.system).toBeGreaterThan(0);
      expect((await usage()) - before, c.erp.system).toBe(billable);
    }
  }, 240_000);

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
        // A connector's own rule is described in Turkish; its id stays in the support console.
        expect(drifted[0]!.messages.join(" "), system.system).not.toMatch(/[a-z-]+\.answer\.[a-z-]+/);
        if (system.system === "dia")
          expect(drifted[0]!.messages.join(" ")).toContain("istenen sütunların bazıları gelmedi");
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
    const db = server.ctx.database.db;
    const checkedAt = (await stored(c.companyId, "erp")).checkedAt;
    // The connector rotating a token of its own is not a change of the connection: the check stands.
    const conn = (await findConnection(db, c.companyId, "erp"))!;
    const login = openCredentials(server.ctx.credentials, conn);
    await credentialPersister(db, server.ctx.credentials, c.companyId, "erp", login)({ accessToken: "yeni" });
    // Each tick of the schedule retries the held first sync: held again, quietly, with no new check.
    for (let tick = 0; tick < 2; tick++) {
      const again = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token: c.token });
      expect((await waitRun(c.token, again.body.data.runId)).status).toBe("Failed");
    }
    expect((await stored(c.companyId, "erp")).checkedAt).toEqual(checkedAt);
    const told = await db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.companyId, c.companyId), like(notifications.text, "İlk aktarım bekletildi%")),
      );
    expect(told).toHaveLength(1);
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

describe("the drift drill", () => {
  it("is armed on the caller's own sandbox only: refused without one, and never reaches a connection that is not the caller's sandbox", async () => {
    const owner = companies[0]!;
    const other = await registerAndLogin(server.app, {
      erpType: owner.erp.type,
      ecommerceType: owner.shop.type,
    });
    const drill = (token: string, body: Record<string, unknown>) =>
      call(server.app, "POST", "/api/sandbox/drift", { token, body });
    // No connection: refused, whatever company the body names.
    const none = await drill(other.token, { connectionType: "erp", companyId: owner.companyId });
    expect(none.status).toBe(409);
    expect(none.body.message).toContain("deneme sistemine bağlı değil");
    // The other company saves the owner's sandbox login as its own ERP: a real system as far as it is concerned.
    const login = server.ctx.sandbox.credentials(owner.erp, owner.companyId);
    const saved = await call(
      server.app,
      "POST",
      `/api/settings/connection-setting-update/erp/${owner.erp.type}`,
      {
        token: other.token,
        body: { fields: login },
      },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await drill(other.token, { connectionType: "erp" })).status).toBe(409);
    // The owner arms its drill on that very tenant: the other company's check still reads the true shapes.
    expect((await drill(owner.token, { connectionType: "erp" })).status).toBe(200);
    const theirs = await call(server.app, "POST", "/api/settings/connection-check", {
      token: other.token,
      body: { connectionType: "erp" },
    });
    const theirOps = theirs.body.data.erp.operations as View[];
    expect(theirOps.length).toBeGreaterThan(0);
    expect(theirOps.filter((o) => o.status === "drift")).toEqual([]);
    // The owner's own check meets the drill.
    const own = await call(server.app, "POST", "/api/settings/connection-check", {
      token: owner.token,
      body: { connectionType: "erp" },
    });
    const drifted = (own.body.data.erp.operations as View[]).filter((o) => o.status === "drift");
    expect(drifted.map((o) => o.operation)).toEqual([CHECK_DRIFTS[owner.erp.system]!.operation]);
  }, 240_000);
});

describe("the daily check", () => {
  it("is a queue schedule in the quiet hours; a tick checks a due company and leaves one not due and one with every job off", async () => {
    const db = server.ctx.database.db;
    const [due, off, recent] = companies as [Company, Company, Company];
    // 03:30 in Istanbul (UTC+3) today.
    const quiet = new Date();
    quiet.setUTCHours(0, 30, 0, 0);
    const ctx = { ...server.ctx, clock: { now: () => new Date(quiet) } };
    const longAgo = new Date(quiet.getTime() - 2 * 86_400_000);
    const lately = new Date(quiet.getTime() - 3_600_000);
    const age = (companyId: number, at: Date) =>
      db.update(connectionChecks).set({ checkedAt: at }).where(eq(connectionChecks.companyId, companyId));
    await age(due.companyId, longAgo);
    await age(off.companyId, longAgo);
    await age(recent.companyId, lately);
    await db
      .update(engineSchema.jobs)
      .set({ isEnabled: false })
      .where(eq(engineSchema.jobs.companyId, off.companyId));

    // Outside the quiet hours a tick checks nothing.
    const noon = new Date(quiet.getTime() + 9 * 3_600_000);
    expect(await new ConnectionCheckService({ ...server.ctx, clock: { now: () => noon } }).dailySweep()).toBe(
      0,
    );

    await startConnectionCheckWorker(ctx);
    const schedule = (await server.ctx.queue.boss.getSchedules()).find(
      (x) => x.name === CONNECTION_CHECK_DAILY_QUEUE,
    );
    expect(schedule).toMatchObject({ cron: CONNECTION_CHECK_DAILY_CRON, options: { tz: "Europe/Istanbul" } });
    // One tick of the schedule, as its cron would send it.
    await server.ctx.queue.boss.send(CONNECTION_CHECK_DAILY_QUEUE, {});
    for (let i = 0; i < 600; i++) {
      const [erp, shop] = [await stored(due.companyId, "erp"), await stored(due.companyId, "shop")];
      if (erp.trigger === "daily" && shop.trigger === "daily") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const kind of ["erp", "shop"] as const) {
      const checked = await stored(due.companyId, kind);
      expect(checked.trigger, kind).toBe("daily");
      expect(checked.checkedAt).toEqual(quiet);
      expect((await stored(off.companyId, kind)).checkedAt).toEqual(longAgo);
      expect((await stored(recent.companyId, kind)).checkedAt).toEqual(lately);
    }
  }, 240_000);
});
