import { describe, expect, it } from "vitest";
import { caught, readAllPages } from "../testing/contract";
import {
  contractSuite,
  describeVersionPin,
  expectConformance,
  expectOrderWritesRefused,
  expectRetriedThroughFaults,
} from "../testing/contract-suite";
import { createEntegraConnector } from "./connector";
import { startEntegraEmulator } from "./emulator/server";
import { judgeEntegraRequest } from "./judge/requests";
import { ENTEGRA_VERSION_PIN } from "./judge/rules";

const suite = contractSuite({
  start: () => startEntegraEmulator({ seed: 11, productCount: 120, pageSize: 25 }),
  connect: (emu, ctx) => createEntegraConnector(emu.credentials, ctx),
  judge: judgeEntegraRequest,
});

describe("Entegra connector against the emulator", () => {
  it("logs in with e-mail and password and sends the JWT on every read", async () => {
    const info = await suite.conn.testConnection();
    expect(info.description).toContain(suite.emu.credentials.email);
    expect(suite.emu.counters.tokensIssued).toBe(1);
    const bad = createEntegraConnector({ ...suite.emu.credentials, password: "yanlis" }, suite.ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    const text = JSON.stringify(suite.logs);
    expect(text).not.toContain(suite.emu.credentials.password);
    for (const t of suite.emu.issuedTokens()) expect(text).not.toContain(t);
  });

  it("reads every product page, variations as variants with their specs and barcodes", async () => {
    const { items, pages } = await readAllPages((t) => suite.conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(suite.emu.products.length);
    expect(pages).toBe(Math.ceil(suite.emu.products.length / 25));
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
    const { items } = await readAllPages((t) => suite.conn.listStock({ pageToken: t }));
    expect(items).toHaveLength(240);
    expect(new Set(items.map((s) => s.location))).toEqual(new Set(["quantity", "quantity2"]));
    const one = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["quantity2"] }));
    expect(one.items).toHaveLength(120);
    expect((await suite.conn.listStockLocations()).map((l) => l.id)).toEqual(["quantity", "quantity2"]);
  });

  it("reads price lists and each SKU's price per list", async () => {
    const groups = await suite.conn.listPriceGroups();
    expect(groups.map((g) => [g.id, g.currency])).toEqual([
      ["price1", "TRY"],
      ["price2", "TRY"],
    ]);
    const { items } = await readAllPages((t) =>
      suite.conn.listPrices({ pageToken: t, priceGroups: ["price1"] }),
    );
    expect(items).toHaveLength(120);
    expect(items.every((p) => p.priceGroup === "price1" && p.amount > 0)).toBe(true);
  });

  it("reads the category tree", async () => {
    const cats = (await suite.conn.listCategories()).items;
    expect(cats.length).toBe(suite.emu.categories.length);
    const child = cats.find((c) => c.parentId);
    expect(child?.path).toHaveLength(2);
  });

  it("says in Turkish that orders and customers are not written, and sends nothing", async () => {
    await expectOrderWritesRefused(suite.conn, () => suite.emu.counters.requests, "Entegra");
  });
});

describe("Entegra faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    await expectRetriedThroughFaults(
      suite.emu,
      () => suite.conn.listProducts(),
      (p) => expect(p.items).toHaveLength(25),
    );
  });

  it("logs in again when the token stops being accepted", async () => {
    const issued = suite.emu.counters.tokensIssued;
    suite.emu.expireTokens();
    await suite.conn.listPriceGroups();
    expect(suite.emu.counters.tokensIssued).toBe(issued + 1);
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
    expectConformance("entegra", suite.conformance.report, { requests: 21 });
  });
});

describeVersionPin("Entegra API: version pin", ENTEGRA_VERSION_PIN);
