import {
  createIdeasoftConnector,
  type IdeasoftEmulator,
  InMemoryRateLimitStore,
  startIdeasoftEmulator,
} from "@ep/connectors";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  credentialPersister,
  findConnection,
  openCredentials,
} from "../src/modules/connections/repository.ts";
import { findOrCreatePartnerCompany, InstallError } from "../src/modules/partner-install/provisioning.ts";
import { companies, licenses, partnerAccounts, users } from "../src/platform/db/schema.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

let emu: IdeasoftEmulator;
let t: TestApp;

/** What Ideasoft does when the merchant approves our app: its consent page redirects with a code. */
async function consentCode(state = "s"): Promise<string> {
  const res = await fetch(
    `${emu.url}/panel/auth?${new URLSearchParams({
      client_id: emu.credentials.clientId,
      response_type: "code",
      state,
      redirect_uri: "http://panel.test/ideasoft-app-install",
    })}`,
    { redirect: "manual" },
  );
  const landing = new URL(res.headers.get("location") ?? "");
  expect(landing.pathname).toBe("/ideasoft-app-install");
  return landing.searchParams.get("code") ?? "";
}

/** A browser starting the install on our side: the state and the cookie that binds it to the browser. */
async function startInstall(domain: string): Promise<{ state: string; cookie: string }> {
  const res = await t.app.inject({
    url: `/api/partner-install/ideasoft/authorize?${new URLSearchParams({ domain })}`,
  });
  expect(res.statusCode).toBe(200);
  const setCookie = String(res.headers["set-cookie"] ?? "");
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  return { state: res.json().data.state as string, cookie: setCookie.split(";")[0]! };
}

const postInstall = (body: Record<string, unknown>, cookie?: string) =>
  t.app
    .inject({
      method: "POST",
      url: "/api/partner-install/ideasoft",
      payload: body,
      headers: cookie ? { cookie } : {},
    })
    .then((res) => ({ status: res.statusCode, body: res.json() }));

async function install(domain: string, code?: string) {
  // A name Ideasoft would not send is refused at authorize: such a landing is started for a real one.
  const started = await startInstall(domain).catch(() => startInstall("magaza-x.myideasoft.com"));
  return postInstall(
    { code: code ?? (await consentCode(started.state)), domain, state: started.state },
    started.cookie,
  );
}

async function signIn(rowId: string) {
  const res = await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId } });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

beforeAll(async () => {
  emu = await startIdeasoftEmulator({ seed: 3, productCount: 20, orderCount: 2, rateLimit: false });
  t = await startTestApp({
    IDEASOFT_CLIENT_ID: emu.credentials.clientId,
    IDEASOFT_CLIENT_SECRET: emu.credentials.clientSecret,
    IDEASOFT_OAUTH_BASE: emu.url,
  });
});

afterAll(async () => {
  await t?.close();
  await emu?.close();
});

describe("Ideasoft app install", () => {
  it("a new store gets company, user, licences of the package and a connected shop, signed in", async () => {
    const res = await install("magaza-a.myideasoft.com");
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(true);
    const token = await signIn(res.body.data.rowId);
    const account = await call(t.app, "GET", "/api/Account", { token });
    expect(account.body.data.companyUser.email).toBe("ayse.yilmaz@example.com.tr");

    const db = t.ctx.database.db;
    const [link] = await db
      .select()
      .from(partnerAccounts)
      .where(eq(partnerAccounts.externalId, "magaza-a.myideasoft.com"));
    const companyId = link!.companyId;
    const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
    expect(company?.ecommerceType).toBe(2);
    const lic = await db.select().from(licenses).where(eq(licenses.companyId, companyId));
    expect(lic.map((l) => l.productType).sort()).toEqual(["ECommerceIntegration", "ErpIntegration"]);
    expect(lic.every((l) => !l.isTrial)).toBe(true);

    const shop = await findConnection(db, companyId, "shop");
    expect(shop?.systemType).toBe(2);
    const creds = openCredentials(t.ctx.credentials, shop!);
    expect(creds.storeDomain).toBe("magaza-a.myideasoft.com");
    expect(emu.liveRefreshTokens()).toContain(creds.refreshToken);
    // The stored connection works as it is.
    const connector = createIdeasoftConnector(creds, {
      companyId: "x",
      rateLimitStore: new InMemoryRateLimitStore(),
    });
    expect((await connector.listCategories()).length).toBeGreaterThan(0);
  });

  it("the same store again signs in to its company instead of registering twice", async () => {
    const before = (await t.ctx.database.db.select().from(companies)).length;
    const res = await install("magaza-a.myideasoft.com");
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(false);
    const token = await signIn(res.body.data.rowId);
    const account = await call(t.app, "GET", "/api/Account", { token });
    expect(account.body.data.companyUser.email).toBe("ayse.yilmaz@example.com.tr");
    expect((await t.ctx.database.db.select().from(companies)).length).toBe(before);
    const links = await t.ctx.database.db
      .select()
      .from(partnerAccounts)
      .where(eq(partnerAccounts.externalId, "magaza-a.myideasoft.com"));
    expect(links).toHaveLength(1);
  });

  it("a rotated refresh token is persisted into the stored connection", async () => {
    const db = t.ctx.database.db;
    const [link] = await db
      .select()
      .from(partnerAccounts)
      .where(eq(partnerAccounts.externalId, "magaza-a.myideasoft.com"));
    const row = await findConnection(db, link!.companyId, "shop");
    const creds = openCredentials(t.ctx.credentials, row!);
    const connector = createIdeasoftConnector(creds, {
      companyId: String(link!.companyId),
      rateLimitStore: new InMemoryRateLimitStore(),
      persistCredentials: credentialPersister(db, t.ctx.credentials, link!.companyId, "shop", creds),
    });
    emu.expireTokens();
    await connector.listCategories();
    const after = openCredentials(t.ctx.credentials, (await findConnection(db, link!.companyId, "shop"))!);
    expect(after.refreshToken).not.toBe(creds.refreshToken);
    expect(emu.liveRefreshTokens()).toContain(after.refreshToken);
    expect(emu.liveRefreshTokens()).not.toContain(creds.refreshToken);
  });

  it("failures answer the spec's error codes", async () => {
    const code = async (res: Awaited<ReturnType<typeof install>>) => {
      expect(res.status).toBe(400);
      return res.body.data.errorCode as string;
    };
    // A code that was never issued (or was used already).
    expect(await code(await install("magaza-b.myideasoft.com", "uydurma-kod"))).toBe("code_refused");
    expect(await code(await install("not a domain"))).toBe("store_missing");

    // The store bought nothing we know.
    emu.store.installedApplication = { applicationId: 1, applicationName: "Başka Bir Uygulama" };
    expect(await code(await install("magaza-c.myideasoft.com"))).toBe("undefined_package_type_request");
    emu.store.installedApplication = { applicationId: 4242, applicationName: "Entegrasyon Paneli E-Ticaret" };

    // Another store whose owner's e-mail already has an account with us.
    expect(await code(await install("magaza-d.myideasoft.com"))).toBe("create_user_failure");
    expect(
      await t.ctx.database.db
        .select()
        .from(partnerAccounts)
        .where(eq(partnerAccounts.externalId, "magaza-d.myideasoft.com")),
    ).toHaveLength(0);

    // A known store whose users are all gone.
    emu.store.owner = { email: "mehmet.kaya@example.com.tr", firstname: "Mehmet", surname: "Kaya" };
    const ok = await install("magaza-e.myideasoft.com");
    expect(ok.status).toBe(200);
    const lic = await t.ctx.database.db
      .select()
      .from(licenses)
      .innerJoin(partnerAccounts, eq(partnerAccounts.companyId, licenses.companyId))
      .where(eq(partnerAccounts.externalId, "magaza-e.myideasoft.com"));
    expect(lic.map((l) => l.licenses.productType)).toEqual(["ECommerceIntegration"]);
    await t.ctx.database.db.delete(users).where(eq(users.email, "mehmet.kaya@example.com.tr"));
    expect(await code(await install("magaza-e.myideasoft.com"))).toBe("user_not_found");
  });

  it("company and licence failures have their own codes", async () => {
    const db = t.ctx.database.db;
    const base = {
      partner: "test-partner",
      user: { email: "zeynep.demir@example.com.tr", firstName: "Zeynep", lastName: "Demir" },
      licences: () => [],
    };
    await expect(
      findOrCreatePartnerCompany(db, {
        ...base,
        externalId: "x1",
        company: { name: "X", erpType: null as unknown as number, ecommerceType: 2 },
      }),
    ).rejects.toSatisfy((e: unknown) => e instanceof InstallError && e.code === "create_company_failure");
    const grant = {
      productType: "ErpIntegration",
      name: "ERP",
      description: "-",
      imageFileName: "erp-integration.svg",
      expiresAt: new Date(),
    };
    await expect(
      findOrCreatePartnerCompany(db, {
        ...base,
        externalId: "x2",
        company: { name: "X", erpType: 0, ecommerceType: 2 },
        licences: () => [grant, grant],
      }),
    ).rejects.toSatisfy((e: unknown) => e instanceof InstallError && e.code === "get_license_failure");
    // All or nothing: neither attempt left a user or a link behind.
    expect(await db.select().from(users).where(eq(users.email, "zeynep.demir@example.com.tr"))).toHaveLength(
      0,
    );
    expect(
      await db
        .select()
        .from(partnerAccounts)
        .where(and(eq(partnerAccounts.partner, "test-partner"))),
    ).toHaveLength(0);
  });

  it("the consent link of a store is built from the configured base", async () => {
    const res = await call(
      t.app,
      "GET",
      "/api/partner-install/ideasoft/authorize?domain=magaza-a.myideasoft.com",
    );
    expect(res.status).toBe(200);
    const url = new URL(res.body.data.url);
    expect(url.pathname).toBe("/panel/auth");
    expect(url.searchParams.get("client_id")).toBe(emu.credentials.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe("http://panel.test/ideasoft-app-install");
    expect(url.searchParams.get("state")).toBe(res.body.data.state);
  });

  it("refuses a code whose state this browser did not start (a victim sent an attacker's link)", async () => {
    const domain = "magaza-state.myideasoft.com";
    // The attacker starts an install in their own browser and keeps the code and state.
    const attacker = await startInstall(domain);
    const code = await consentCode(attacker.state);
    // The victim's browser: no cookie, or its own install's cookie.
    const victim = await startInstall(domain);
    for (const cookie of [undefined, victim.cookie]) {
      const res = await postInstall({ code, domain, state: attacker.state }, cookie);
      expect(res.status).toBe(400);
      expect(res.body.data.errorCode).toBe("state_mismatch");
    }
    // Without a state at all, and with a forged cookie value.
    expect((await postInstall({ code, domain }, attacker.cookie)).body.data.errorCode).toBe("state_mismatch");
    const forged = `ep_oauth_state=${attacker.cookie.split("=")[1]!.replace(/.$/, "x")}`;
    expect((await postInstall({ code, domain, state: attacker.state }, forged)).body.data.errorCode).toBe(
      "state_mismatch",
    );
    const [row] = await t.ctx.database.db
      .select()
      .from(partnerAccounts)
      .where(eq(partnerAccounts.externalId, domain));
    expect(row).toBeUndefined();
    // The browser that started it gets in, once.
    const own = await postInstall({ code, domain, state: attacker.state }, attacker.cookie);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });
});
