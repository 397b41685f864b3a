/**
 * Logo İşbaşı sign-on (`/logo-auth-redirect` → `POST /api/partner-install/logo`): the key from Logo's
 * redirect and the İşbaşı user's e-mail and password, proven by `integrationLogin` against the emulator.
 */
import { type IsbasiEmulator, startIsbasiEmulator } from "@ep/connectors";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import { companies, licenses, partnerAccounts, users } from "../src/platform/db/schema.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

let emu: IsbasiEmulator;
let t: TestApp;

const signOn = (body: Record<string, string>) => call(t.app, "POST", "/api/partner-install/logo", { body });
const asUser = (e: IsbasiEmulator) => ({
  apiKey: e.credentials.apiKey,
  username: e.credentials.username,
  password: e.credentials.password,
});

async function signIn(rowId: string) {
  const res = await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId } });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

const errorCode = (res: Awaited<ReturnType<typeof signOn>>) => {
  expect(res.status).toBe(400);
  return res.body.data.errorCode as string;
};

const db = () => t.ctx.database.db;
const companyOfTenant = async (tenantId: string) => {
  const [link] = await db().select().from(partnerAccounts).where(eq(partnerAccounts.externalId, tenantId));
  return link?.companyId;
};

beforeAll(async () => {
  emu = await startIsbasiEmulator({ seed: 4, productCount: 10, rateLimit: false, faults: { hangMs: 500 } });
  t = await startTestApp({ CAPTCHA: "off", LOGO_ISBASI_API_URL: emu.url });
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});

describe("Logo İşbaşı sign-on", () => {
  it("a new tenant gets company, user, trial licences and a tested İşbaşı connection, signed in", async () => {
    const res = await signOn(asUser(emu));
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(true);
    const token = await signIn(res.body.data.rowId);
    const account = await call(t.app, "GET", "/api/Account", { token });
    expect(account.body.data.companyUser.email).toBe(emu.credentials.username);

    const companyId = await companyOfTenant(emu.tenantId);
    expect(companyId).toBeDefined();
    const [company] = await db().select().from(companies).where(eq(companies.id, companyId!));
    expect(company?.erpType).toBe(21);
    const lic = await db().select().from(licenses).where(eq(licenses.companyId, companyId!));
    expect(lic.map((l) => l.productType).sort()).toEqual(["ECommerceIntegration", "ErpIntegration"]);
    const erp = await findConnection(db(), companyId!, "erp");
    expect(erp?.systemType).toBe(21);
    expect(erp?.lastTestOk).toBe(true);
    const creds = openCredentials(t.ctx.credentials, erp!);
    expect(creds).toMatchObject({
      apiKey: emu.credentials.apiKey,
      username: emu.credentials.username,
      password: emu.credentials.password,
      tenantId: emu.tenantId,
      apiUrl: emu.url,
    });
  });

  it("the same tenant again signs in to its company instead of registering twice", async () => {
    const before = (await db().select().from(companies)).length;
    const res = await signOn(asUser(emu));
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(false);
    const token = await signIn(res.body.data.rowId);
    const account = await call(t.app, "GET", "/api/Account", { token });
    expect(account.body.data.company.id).toBe(await companyOfTenant(emu.tenantId));
    expect((await db().select().from(companies)).length).toBe(before);
    expect(
      await db().select().from(partnerAccounts).where(eq(partnerAccounts.externalId, emu.tenantId)),
    ).toHaveLength(1);
  });

  it("the key alone, a wrong password or a wrong key sign nobody in (user_not_found), and create nothing", async () => {
    const before = (await db().select().from(companies)).length;
    expect(errorCode(await signOn({ ...asUser(emu), password: "yanlis-parola" }))).toBe("user_not_found");
    expect(errorCode(await signOn({ ...asUser(emu), apiKey: "baska-bir-anahtar" }))).toBe("user_not_found");
    const missing = await call(t.app, "POST", "/api/partner-install/logo", {
      body: { apiKey: emu.credentials.apiKey },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data?.rowId).toBeUndefined();
    expect((await db().select().from(companies)).length).toBe(before);
  });

  it("İşbaşı failing (5xx, timeout) says İşbaşı is not answering (was system_exception); nothing is created", async () => {
    const other = await startIsbasiEmulator({
      seed: 5,
      tenantId: "4719c95b-216c-49eb-bf62-00000000f001",
      username: "ayse@ornek-kirtasiye.com.tr",
      rateLimit: false,
    });
    const app = await startTestApp({ CAPTCHA: "off", LOGO_ISBASI_API_URL: other.url });
    try {
      other.faults.set({ rate5xx: 1 });
      const res = await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(other) });
      expect(res.status).toBe(400);
      expect(res.body.data.errorCode).toBe("store_unreachable");
      expect(res.body.data.cause).toContain("Logo Is Basi şu an yanıt vermiyor");
      other.faults.set({ timeoutRate: 1, hangMs: 3_000 });
      const slow = await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(other) });
      expect(slow.body.data.errorCode).toBe("store_unreachable");
      expect(await app.ctx.database.db.select().from(partnerAccounts)).toEqual([]);
      // Back up: the same user signs on.
      other.faults.set({});
      const ok = await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(other) });
      expect(ok.status).toBe(200);
      expect(ok.body.data.created).toBe(true);
    } finally {
      await app.close();
      await other.close();
    }
  }, 30_000);

  it("another tenant gets its own company; A's tenant never signs in to B's or the other way", async () => {
    const b = await startIsbasiEmulator({
      seed: 6,
      tenantId: "4719c95b-216c-49eb-bf62-00000000b002",
      username: "mehmet@ornek-nalbur.com.tr",
      apiKey: "isbasi-key-of-tenant-b",
      rateLimit: false,
    });
    const app = await startTestApp({ CAPTCHA: "off", LOGO_ISBASI_API_URL: b.url });
    try {
      const res = await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(b) });
      expect(res.body.data.created).toBe(true);
      const tokenB = (
        await call(app.app, "POST", "/api/account/login-by-rowId", { body: { rowId: res.body.data.rowId } })
      ).body.data.token as string;
      const accountB = await call(app.app, "GET", "/api/Account", { token: tokenB });
      expect(accountB.body.data.companyUser.email).toBe("mehmet@ornek-nalbur.com.tr");
      // Tenant A's key against B's İşbaşı is refused: keys are per tenant.
      const cross = await call(app.app, "POST", "/api/partner-install/logo", {
        body: { ...asUser(b), apiKey: emu.credentials.apiKey },
      });
      expect(cross.body.data.errorCode).toBe("user_not_found");
    } finally {
      await app.close();
      await b.close();
    }
    // In the first app, A still lands in A's company only.
    const again = await signOn(asUser(emu));
    const token = await signIn(again.body.data.rowId);
    const account = await call(t.app, "GET", "/api/Account", { token });
    expect(account.body.data.company.id).toBe(await companyOfTenant(emu.tenantId));
  }, 30_000);

  it("an İşbaşı user that is not an e-mail is create_user_failure; a tenant whose users are gone is user_not_found", async () => {
    const odd = await startIsbasiEmulator({
      seed: 7,
      tenantId: "4719c95b-216c-49eb-bf62-00000000c003",
      username: "yonetici",
      rateLimit: false,
    });
    const app = await startTestApp({ CAPTCHA: "off", LOGO_ISBASI_API_URL: odd.url });
    try {
      const res = await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(odd) });
      expect(res.body.data.errorCode).toBe("create_user_failure");
    } finally {
      await app.close();
      await odd.close();
    }
    const companyId = await companyOfTenant(emu.tenantId);
    await db().delete(users).where(eq(users.companyId, companyId!));
    expect(errorCode(await signOn(asUser(emu)))).toBe("user_not_found");
  }, 30_000);

  it("limits attempts per İşbaşı user: the eleventh in 15 minutes is 429 with Retry-After and never reaches İşbaşı", async () => {
    const app = await startTestApp({ CAPTCHA: "off", LOGO_ISBASI_API_URL: emu.url });
    try {
      const guess = { ...asUser(emu), password: "yanlis-parola" };
      for (let i = 0; i < 10; i++) {
        const res = await call(app.app, "POST", "/api/partner-install/logo", { body: guess });
        expect(res.status).toBe(400);
      }
      const asked = emu.counters.requests;
      const limited = await app.app.inject({
        method: "POST",
        url: "/api/partner-install/logo",
        payload: asUser(emu),
      });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect(emu.counters.requests).toBe(asked);
      app.clock.advance(15 * 60_000 + 1000);
      expect((await call(app.app, "POST", "/api/partner-install/logo", { body: asUser(emu) })).status).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  });
});
