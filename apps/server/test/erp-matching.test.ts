import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let other: string;
let erpSkus: string[];
let shopSkus: string[];

beforeAll(async () => {
  t = await startTestApp();
  c = await connectedCompany(t, { erp: { productCount: 12 }, shop: { productCount: 8 } });
  other = (await registerAndLogin(t.app)).token;
  // The shop's own codes differ from the ERP's (a shop filled by hand): rename its variants.
  shopSkus = [];
  for (const [sku, [productId, variantId]] of [...c.shop.state.skuIndex.entries()].slice(0, 6)) {
    const renamed = `WEB-${sku}`;
    c.shop.state.findVariant(productId, variantId)!.sku = renamed;
    c.shop.state.skuIndex.delete(sku);
    c.shop.state.skuIndex.set(renamed, [productId, variantId]);
    shopSkus.push(renamed);
  }
  erpSkus = [...c.erp.state.stokByKod.keys()].filter((s) => !c.shop.state.skuIndex.has(s));
}, 60_000);

afterAll(async () => {
  await c?.close();
  await t?.close();
});

const api = (method: "GET" | "POST" | "DELETE", url: string, body?: unknown, token = c.token) =>
  call(t.app, method, url, { token, body });

describe("ERP matching", () => {
  it("links an ERP item to a shop variant and the next stock run uses the link", async () => {
    const erpSku = erpSkus[0]!;
    const shopSku = shopSkus[0]!;
    const created = await api("POST", "/api/ErpMatching", { erpSku, shopSku });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe("Eşleştirme kaydedildi.");
    const [productId, variantId] = c.shop.state.skuIndex.get(shopSku)!;
    expect(created.body.data).toMatchObject({
      erpSku,
      shopSku,
      shopProductId: productId,
      shopVariantId: variantId,
    });

    c.erp.state.setStock(erpSku, 1, 41);
    c.erp.state.setStock(erpSku, 2, 1);
    const run = await runJob(t, c, "StockIntegration");
    expect(run.status, JSON.stringify(run)).not.toBe("Failed");
    const variant = c.shop.state.findVariant(productId, variantId)!;
    const location = c.shop.state.stockLocations[0]!.id;
    expect(variant.stocks.find((s) => s.stockLocationId === location)?.stockCount).toBe(42);

    const one = await api("GET", `/api/ErpMatching/${created.body.data.id}`);
    expect(one.body.data.erpSku).toBe(erpSku);
    const found = await api("GET", `/api/ErpMatching?search=${encodeURIComponent(shopSku.slice(0, 4))}`);
    expect(found.body.data.map((m: { id: number }) => m.id)).toContain(created.body.data.id);
  });

  it("refuses duplicates, unknown shop codes and bad input", async () => {
    const dup = await api("POST", "/api/ErpMatching", { erpSku: erpSkus[0], shopSku: shopSkus[1] });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain("zaten bir eşleştirme var");
    const unknown = await api("POST", "/api/ErpMatching", { erpSku: erpSkus[1], shopSku: "YOK-BOYLE-KOD" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Mağazada bu stok koduna sahip ürün bulunamadı.");
    const empty = await api("POST", "/api/ErpMatching", { erpSku: "", shopSku: shopSkus[1] });
    expect(empty.status).toBe(400);
  });

  it("imports a CSV with a result per row", async () => {
    const csv = [
      "ERP Kodu;Mağaza Kodu",
      `${erpSkus[2]};${shopSkus[2]}`,
      `"${erpSkus[3]}";"${shopSkus[3]}"`,
      `${erpSkus[4]};YOK-BOYLE-KOD`,
      `${erpSkus[5]};`,
      `${erpSkus[0]};${shopSkus[4]}`,
    ].join("\r\n");
    const res = await api("POST", "/api/ErpMatching/import", { csv });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 2, refused: 3 });
    const reasons = res.body.data.rows.map((r: { reason: string | null }) => r.reason);
    expect(reasons[0]).toBeNull();
    expect(reasons[2]).toBe("Mağazada bu stok koduna sahip ürün bulunamadı.");
    expect(reasons[3]).toBe("Satırda ERP ve mağaza stok kodu bulunmalıdır.");
    expect(reasons[4]).toContain("zaten bir eşleştirme var");
    expect((await api("GET", "/api/ErpMatching")).body.data).toHaveLength(3);
  });

  it("keeps each company's links to itself and deletes them", async () => {
    const list = (await api("GET", "/api/ErpMatching")).body.data as Array<{ id: number }>;
    const id = list[0]!.id;
    expect((await api("GET", `/api/ErpMatching/${id}`, undefined, other)).status).toBe(404);
    expect((await api("DELETE", `/api/ErpMatching/${id}`, undefined, other)).status).toBe(404);
    expect((await api("GET", "/api/ErpMatching", undefined, other)).body.data).toEqual([]);
    const noShop = await api("POST", "/api/ErpMatching", { erpSku: "A", shopSku: "B" }, other);
    expect(noShop.status).toBe(409);

    const deleted = await api("DELETE", `/api/ErpMatching/${id}`);
    expect(deleted.status).toBe(200);
    expect((await api("GET", `/api/ErpMatching/${id}`)).status).toBe(404);
    const activities = await api("GET", "/api/Activity/1/30");
    expect(JSON.stringify(activities.body.data)).toContain("ERP eşleştirmesi değiştirildi");
  });
});
