import { beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ErpConnector } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import {
  ConformanceTally,
  closeAfterAll,
  describeVersionPin,
  expectConformance,
  expectOrderWritesRefused,
} from "../testing/contract-suite";
import { createEntegraConnector } from "./connector";
import { type EntegraEmulator, startEntegraEmulator } from "./emulator/server";
import { judgeEntegraRequest } from "./judge/requests";
import { ENTEGRA_VERSION_PIN } from "./judge/rules";

let emu: EntegraEmulator;
let conn: ErpConnector;
const logs: HttpLogEntry[] = [];
const store = new InMemoryRateLimitStore();

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, logs, over);
}

const conformance = new ConformanceTally(judgeEntegraRequest);

beforeAll(async () => {
  emu = await startEntegraEmulator({ seed: 11, productCount: 120, pageSize: 25 });
  conn = createEntegraConnector(emu.credentials, ctx());
});

closeAfterAll(() => emu);

conformance.takeAfterEach(() => emu);

describe("Entegra connector against the emulator", () => {
  it("logs in with e-mail and password and sends the JWT on every read", async () => {
    const info = await conn.testConnection();
    expect(info.description).toContain(emu.credentials.email);
    expect(emu.counters.tokensIssued).toBe(1);
    const bad = createEntegraConnector({ ...emu.credentials, password: "yanlis" }, ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    const text = JSON.stringify(logs);
    expect(text).not.toContain(emu.credentials.password);
    for (const t of emu.issuedTokens()) expect(text).not.toContain(t);
  });

  it("reads every product page, variations as variants with their specs and barcodes", async () => {
    const { items, pages } = await readAllPages((t) => conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(emu.products.length);
    expect(pages).toBe(Math.ceil(emu.products.length / 25));
    const withVariants = items.find((p) => p.variants.length > 1);
    expect(withVariants?.groupKey).toBe(withVariants?.sku);
    expect(Object.keys(withVariants?.variants[0]?.options ?? {}).length).toBe(1);
    expect(withVariants?.variants[0]?.barcodes[0]).toMatch(/^\d{13}$/);
    for (const p of items) {
      expect([0, 1, 10, 20]).toContain(p.vatRate);
      expect(p.categoryPath).toHaveLength(2);
    }
    const skus = items.flatMap((p) => p.variants.map((v) => v.sku));
    expect(new Set(skus).size).toBe(120);
  });

  it("reads both stock fields per SKU, and only the asked one", async () => {
    const { items } = await readAllPages((t) => conn.listStock({ pageToken: t }));
    expect(items).toHaveLength(240);
    expect(new Set(items.map((s) => s.location))).toEqual(new Set(["quantity", "quantity2"]));
    const one = await readAllPages((t) => conn.listStock({ pageToken: t, locations: ["quantity2"] }));
    expect(one.items).toHaveLength(120);
    expect((await conn.listStockLocations()).map((l) => l.id)).toEqual(["quantity", "quantity2"]);
  });

  it("reads price lists and each SKU's price per list", async () => {
    const groups = await conn.listPriceGroups();
    expect(groups.map((g) => [g.id, g.currency])).toEqual([
      ["price1", "TRY"],
      ["price2", "TRY"],
    ]);
    const { items } = await readAllPages((t) => conn.listPrices({ pageToken: t, priceGroups: ["price1"] }));
    expect(items).toHaveLength(120);
    expect(items.every((p) => p.priceGroup === "price1" && p.amount > 0)).toBe(true);
  });

  it("reads the category tree", async () => {
    const cats = (await conn.listCategories()).items;
    expect(cats.length).toBe(emu.categories.length);
    const child = cats.find((c) => c.parentId);
    expect(child?.path).toHaveLength(2);
  });

  it("says in Turkish that orders and customers are not written, and sends nothing", async () => {
    await expectOrderWritesRefused(conn, () => emu.counters.requests, "Entegra");
  });
});

describe("Entegra faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    emu.faults.set({
      retryAfterSeconds: 1,
      hangMs: 1_000,
      queue: [{ kind: "429" }, { kind: "5xx" }, { kind: "timeout" }],
    });
    const p = await conn.listProducts();
    expect(p.items.length).toBe(25);
    expect(emu.counters.faults["429"]).toBe(1);
    expect(emu.counters.faults["5xx"]).toBe(1);
    expect(emu.counters.faults.timeout).toBe(1);
  });

  it("logs in again when the token stops being accepted", async () => {
    const issued = emu.counters.tokensIssued;
    emu.expireTokens();
    await conn.listPriceGroups();
    expect(emu.counters.tokensIssued).toBe(issued + 1);
  });
});

describe("Entegra conformance", () => {
  it("the judge knows the tap's requests only", () => {
    const get = (path: string, headers: Record<string, string>, query: Record<string, unknown> = {}) => ({
      at: 0,
      method: "GET",
      path,
      query,
      headers,
      body: undefined,
    });
    expect(judgeEntegraRequest(get("/product/page=2/", { authorization: "JWT a" }))?.problems).toEqual([]);
    expect(judgeEntegraRequest(get("/product/page=2/", { authorization: "Bearer a" }))?.problems).toEqual([
      "Entegra takes 'Authorization: JWT <access>', not Bearer",
    ]);
    expect(judgeEntegraRequest(get("/product/page=0/", { authorization: "JWT a" }))).toBeUndefined();
    expect(judgeEntegraRequest(get("/product/", { authorization: "JWT a" }, { page: "1" }))).toBeUndefined();
    expect(judgeEntegraRequest({ ...get("/order/", {}), method: "POST" })).toBeUndefined();
  });

  it("every request the connector sent was judged and none was rejected", () => {
    expectConformance("entegra", conformance.report, { requests: 21 });
  });
});

describeVersionPin("Entegra API: version pin", ENTEGRA_VERSION_PIN);
