import { type IkasEmulator, type MikroEmulator, startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import { loadMappings } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

// Every listed system has a connector now (JetStok, the last, through its files): the cases of "a listed
// system without a connector" are gone with it.

let t: TestApp;
let erp: MikroEmulator;
let shop: IkasEmulator;
let token: string;
let companyId: number;
let other: string;
/** Every response body of this file, to prove no secret ever leaves the server. */
const seen: string[] = [];

const req = async (method: "GET" | "POST", url: string, body?: unknown, as = token) => {
  const res = await call(t.app, method, url, { token: as, body });
  seen.push(JSON.stringify(res.body));
  return res;
};

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: "debug" });
  erp = await startMikroEmulator({ host: "127.0.0.1", seed: 3, productCount: 10 });
  shop = await startIkasEmulator({ host: "127.0.0.1", seed: 3, productCount: 10, orderCount: 0 });
  const first = await registerAndLogin(t.app);
  token = first.token;
  companyId = first.account.company.id;
  other = (await registerAndLogin(t.app)).token;
}, 60_000);

afterAll(async () => {
  await Promise.all([erp?.close(), shop?.close()]);
  await t?.close();
});

describe("connections", () => {
  it("starts empty and offers each system's declared form", async () => {
    const res = await req("GET", "/api/settings/connections");
    expect(res.status).toBe(200);
    expect(res.body.data.erp).toBeNull();
    expect(res.body.data.ecommerce).toBeNull();
    expect(res.body.data.registeredErpType).toBe(9);
    const mikro = res.body.data.connectors.find(
      (c: { connectionType: string; productType: number }) =>
        c.connectionType === "erp" && c.productType === 9,
    );
    expect(mikro.implemented).toBe(true);
    expect(mikro.fields.map((f: { name: string }) => f.name)).toContain("apiKey");
    expect(mikro.fields.find((f: { name: string }) => f.name === "firmCode").label).toBe("Firma kodu");
    expect(mikro.limitations).toEqual([]);
    // A shop that cannot do every job says so on the form (Sentos only reads).
    const sentos = res.body.data.connectors.find(
      (c: { connectionType: string; productType: number }) =>
        c.connectionType === "ecommerce" && c.productType === 3,
    );
    expect(sentos.implemented).toBe(true);
    expect(sentos.limitations).toHaveLength(1);
    expect(sentos.limitations[0]).toContain("yalnızca ürünleri, depoları ve siparişleri okur");
    // Dynamics AX 2012 is past Microsoft's end of support: its form says so, in Turkish; Mikro's does not.
    const ax = res.body.data.connectors.find(
      (c: { connectionType: string; productType: number }) =>
        c.connectionType === "erp" && c.productType === 7,
    );
    expect(ax.supportWarning).toBe(
      "Microsoft Dynamics AX (AX 2012 R3) için üreticinin desteği 10.01.2023 tarihinde sona erdi: güvenlik ve hata düzeltmeleri artık yayımlanmıyor. Bağlantı çalışmaya devam eder; desteklenen bir sürüme geçişinizi planlayınız.",
    );
    expect(mikro.supportWarning).toBeNull();
    // JetStok has no API: it connects through its files, and its card says what it cannot do.
    const jetstok = res.body.data.connectors.find(
      (c: { connectionType: string; productType: number }) =>
        c.connectionType === "ecommerce" && c.productType === 7,
    );
    expect(jetstok).toMatchObject({ implemented: true, availability: "files" });
    expect(jetstok.fields.every((f: { required: boolean }) => !f.required)).toBe(true);
    expect(jetstok.limitations.join(" ")).toContain("API yok");
  });

  it("tests unsaved values against the live system, in Turkish", async () => {
    const good = await req("POST", "/api/APIConnection/erp/9", { fields: erp.credentials });
    expect(good.body.data.ok).toBe(true);
    expect(good.body.data.message).toMatch(/^Bağlantı başarılı\. Mikro:/);
    const bad = await req("POST", "/api/APIConnection/ecommerce/1", {
      fields: { ...shop.credentials, clientSecret: "yanlis-gizli-anahtar" },
    });
    expect(bad.body.data.ok).toBe(false);
    expect(bad.body.data.message).toContain("kimlik bilgileri kabul edilmedi");
    const unreachable = await req("POST", "/api/APIConnection/erp/9", {
      fields: { ...erp.credentials, apiUrl: "http://127.0.0.1:9" },
    });
    expect(unreachable.body.data.message).toContain("ulaşılamadı");
    // JetStok: nothing to call, the file exchange is the connection.
    const files = await req("POST", "/api/APIConnection/ecommerce/7", { fields: {} });
    expect(files.body.data).toMatchObject({ ok: true });
    expect(files.body.data.message).toContain("JetStok dosya ile bağlı");
  });

  it("validates the form against the declared fields", async () => {
    const missing = await req("POST", "/api/settings/connection-setting-update/erp/9", {
      fields: { ...erp.credentials, apiKey: "", apiUrl: "not a url", period: "yirmi" },
    });
    expect(missing.status).toBe(400);
    const fields = missing.body.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["fields.apiKey", "fields.apiUrl", "fields.period"]));
    expect(missing.body.data.errors[0].message).toMatch(/zorunludur|Geçerli/);
    const unknown = await req("POST", "/api/settings/connection-setting-update/erp/9", {
      fields: { ...erp.credentials, hacker: "x" },
    });
    expect(unknown.status).toBe(400);
    const badType = await req("POST", "/api/settings/connection-setting-update/crm/9", { fields: {} });
    expect(badType.status).toBe(400);
  });

  it("saves both sides masked, creates the jobs, keeps secrets unless replaced", async () => {
    const savedErp = await req("POST", "/api/settings/connection-setting-update/erp/9", {
      fields: erp.credentials,
    });
    expect(savedErp.status).toBe(200);
    expect(savedErp.body.data.jobsReady).toBe(false);
    // Saving tests at once: the status is known without a separate test.
    expect(savedErp.body.data.connection.lastTest).toMatchObject({ ok: true });
    expect(savedErp.body.data.connection.secretsSet.sort()).toEqual(["apiKey", "password"]);
    expect(savedErp.body.data.connection.values).not.toHaveProperty("apiKey");
    expect(savedErp.body.data.connection.values.firmCode).toBe(erp.credentials.firmCode);

    const savedShop = await req("POST", "/api/settings/connection-setting-update/ecommerce/1", {
      fields: shop.credentials,
    });
    expect(savedShop.body.data.jobsReady).toBe(true);
    expect(savedShop.body.message).toContain("görevleriniz hazır");
    const jobs = await req("GET", "/api/Job/type-filter/ProductIntegration,OrderIntegration");
    expect(jobs.body.data).toHaveLength(2);

    // The form sends secrets back empty: the stored ones stay and the stored test passes.
    const resave = await req("POST", "/api/settings/connection-setting-update/ecommerce/1", {
      fields: { ...shop.credentials, clientSecret: "" },
    });
    expect(resave.status).toBe(200);
    const stored = await req("POST", "/api/APIConnection/ecommerce/1");
    expect(stored.body.data?.ok, JSON.stringify(stored.body)).toBe(true);
    expect(stored.body.data.message).toContain("ikas mağazası");

    // Saved wrong credentials: saved, and their failed test is the connection's status.
    const wrong = await req("POST", "/api/settings/connection-setting-update/erp/9", {
      fields: { ...erp.credentials, apiKey: "yanlis-anahtar" },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body.data.connection.lastTest.ok).toBe(false);
    expect(wrong.body.data.connection.lastTest.message).toContain("kimlik bilgileri kabul edilmedi");
    const failed = await req("POST", "/api/APIConnection/erp/9");
    expect(failed.body.data.ok).toBe(false);
    let overview = await req("GET", "/api/settings/connections");
    expect(overview.body.data.erp.lastTest).toMatchObject({ ok: false });
    expect(overview.body.data.ecommerce.lastTest).toMatchObject({ ok: true });

    await req("POST", "/api/settings/connection-setting-update/erp/9", { fields: erp.credentials });
    expect((await req("POST", "/api/APIConnection/erp/9")).body.data.ok).toBe(true);
    overview = await req("GET", "/api/settings/connections");
    expect(overview.body.data.erp.lastTest.ok).toBe(true);

    const activities = await req("GET", "/api/Activity/1/30");
    expect(JSON.stringify(activities.body.data)).toContain("Bağlantı bilgileri değiştirildi");
  });

  it("another company sees none of it", async () => {
    const res = await req("GET", "/api/settings/connections", undefined, other);
    expect(res.body.data.erp).toBeNull();
    expect(res.body.data.ecommerce).toBeNull();
    const list = await req("GET", "/api/settings/ecommerce-order-status-list", undefined, other);
    expect(list.status).toBe(409);
    expect(list.body.message).toContain("bağlantı ayarlarını kaydediniz");
    const stored = await req("POST", "/api/APIConnection/erp/9", undefined, other);
    expect(stored.status).toBe(400);
  });
});

describe("integration settings", () => {
  it("reads the engine's defaults by type and by keys", async () => {
    const price = await req("GET", "/api/settings/PriceIntegration");
    expect(price.body.data.map((s: { key: string }) => s.key)).toEqual([
      "erpPriceGroup",
      "shopPriceList",
      "shopPricesIncludeVat",
      "priceGuardMaxDropPercent",
    ]);
    expect(price.body.data[2]).toMatchObject({ value: true, isDefault: true });
    const keys = await req("GET", "/api/settings/setting-keys/minStock,orderSeries");
    expect(keys.body.data.map((s: { value: unknown }) => s.value)).toEqual([0, "WEB"]);
    expect((await req("GET", "/api/settings/setting-keys/minStock,secretKey")).status).toBe(400);
    expect((await req("GET", "/api/settings/NoSuchType")).status).toBe(400);
  });

  it("stores what the engine reads, validated per key, unknown keys refused", async () => {
    const saved = await req("POST", "/api/settings", {
      settings: [
        { key: "minStock", value: 3 },
        { key: "paymentTypes", value: { "kredi-karti": "KK" } },
        { key: "stockLocations", value: [{ shopLocationId: "loc-1", erpLocations: ["1", "2"] }] },
        { key: "customerRule", value: { kind: "singleAccount", accountCode: "120.01" } },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toContain("bir sonraki çalışmada");
    const mappings = await loadMappings(t.ctx.database.db, companyId);
    expect(mappings.minStock).toBe(3);
    expect(mappings.paymentTypes).toEqual({ "kredi-karti": "KK" });
    expect(mappings.stockLocations).toEqual([{ shopLocationId: "loc-1", erpLocations: ["1", "2"] }]);
    expect(mappings.customerRule).toEqual({ kind: "singleAccount", accountCode: "120.01" });

    const unknown = await req("POST", "/api/settings", {
      settings: [
        { key: "minStock", value: 9 },
        { key: "adminPassword", value: "x" },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.errors[0]).toMatchObject({ field: "settings.1.key" });
    expect(unknown.body.data.errors[0].message).toBe("Bilinmeyen ayar anahtarı.");
    const invalid = await req("POST", "/api/settings", { settings: [{ key: "minStock", value: -1 }] });
    expect(invalid.status).toBe(400);
    expect((await loadMappings(t.ctx.database.db, companyId)).minStock).toBe(3);

    const otherView = await req("GET", "/api/settings/setting-keys/minStock", undefined, other);
    expect(otherView.body.data[0]).toMatchObject({ value: 0, isDefault: true });
  });

  it("answers the layout with the licences and the live lists", async () => {
    const layout = await req("GET", "/api/settings/settings-layout");
    expect(layout.body.data.LicenceInfo.length).toBeGreaterThan(0);
    expect(layout.body.data.connections).toEqual({ erp: true, ecommerce: true });
    expect(layout.body.data.groups.find((g: { type: string }) => g.type === "StockIntegration").keys).toEqual(
      ["stockLocations", "minStock", "stockGuardMaxZeroPercent"],
    );
    for (const path of [
      "ecommerce-order-status-list",
      "erp-price-group-list",
      "ecommerce-price-group-list",
      "ecommerce-payment-type-list",
      "custom-data/depo-list",
      "custom-data/category-list",
      "e-commerce/custom-data/depo-list",
    ]) {
      const res = await req("GET", `/api/Settings/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.body.data.length, path).toBeGreaterThan(0);
      expect(res.body.data[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
    }
    expect((await req("GET", "/api/settings/sales-channel-list")).status).toBe(200);
    expect((await req("GET", "/api/settings/custom-data/no-such-list")).status).toBe(404);
  });
});

describe("live lists while the system is busy", () => {
  it("rides out a brief 429 or 5xx, and calls a lasting outage busy, not a bad setting", async () => {
    shop.faults.enqueue(
      { kind: "429", operation: "listSalesChannel" },
      { kind: "5xx", operation: "listSalesChannel" },
    );
    const through = await req("GET", "/api/settings/sales-channel-list");
    expect(through.status).toBe(200);
    expect(through.body.data.length).toBeGreaterThan(0);

    shop.faults.enqueue({ kind: "5xx", operation: "listSalesChannel", times: 10 });
    const busy = await req("GET", "/api/settings/sales-channel-list");
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe(
      "Bağlı sistem şu anda yoğun veya yanıt vermiyor. Birkaç saniye sonra tekrar deneyiniz.",
    );
    shop.faults.clear();
  });
});

describe("a pair that does not work", () => {
  it("is saved but gets no jobs until both sides test fine", async () => {
    const third = (await registerAndLogin(t.app)).token;
    const down = await req(
      "POST",
      "/api/settings/connection-setting-update/erp/9",
      { fields: { ...erp.credentials, apiUrl: "http://127.0.0.1:9" } },
      third,
    );
    expect(down.status).toBe(200);
    expect(down.body.data.connection.lastTest).toMatchObject({ ok: false });
    const up = await req(
      "POST",
      "/api/settings/connection-setting-update/ecommerce/1",
      { fields: shop.credentials },
      third,
    );
    expect(up.body.data.jobsReady).toBe(false);
    expect((await req("GET", "/api/Job/type-filter/ProductIntegration", undefined, third)).body.data).toEqual(
      [],
    );
    // Fixed and saved again: the pair works, the jobs come.
    const fixed = await req(
      "POST",
      "/api/settings/connection-setting-update/erp/9",
      { fields: erp.credentials },
      third,
    );
    expect(fixed.body.data.jobsReady).toBe(true);
    const settingsActivity = await req("GET", "/api/Activity/1/30");
    expect(JSON.stringify(settingsActivity.body.data)).toContain("Ayarlar kaydedildi (Stok Güncelleme");
  });
});

it("never lets a credential out: not in any response, not in any log line", () => {
  const secrets = [erp.credentials.apiKey, erp.credentials.password, shop.credentials.clientSecret];
  const text = seen.join("\n");
  const logs = t.logs.join("");
  expect(t.logs.length).toBeGreaterThan(10);
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    expect(logs).not.toContain(secret);
  }
  for (const token of shop.issuedTokens()) expect(logs).not.toContain(token);
});
