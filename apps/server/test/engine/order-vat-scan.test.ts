import type { ErpConnector, Product } from "@ep/connectors";
import { erpVatRates } from "@ep/engine";
import { describe, expect, it } from "vitest";

/** Ten pages of ten cards, SKU `S<n>` at rate n % 3 × 10; `fail` makes one page's read throw once. */
function pagedErp(fail?: number) {
  const reads: number[] = [];
  let failed = false;
  const card = (n: number): Product => ({
    sku: `S${n}`,
    name: `Ürün ${n}`,
    categoryPath: [],
    vatRate: (n % 3) * 10,
    unit: "Adet",
    variants: [],
    images: [],
    isActive: true,
  });
  const erp: Pick<ErpConnector, "listProducts"> = {
    listProducts: async (q) => {
      const page = Number(q?.pageToken ?? 0);
      reads.push(page);
      if (page === fail && !failed) {
        failed = true;
        throw new Error("ERP unavailable");
      }
      return {
        items: Array.from({ length: 10 }, (_, i) => card(page * 10 + i)),
        nextPageToken: page < 9 ? String(page + 1) : undefined,
      };
    },
  };
  return { erp, reads };
}

/**
 * Issue 37: an Amazon order's lines take the ERP card's VAT rate, and the ERP has no read by SKU. The
 * cards are paged only as far as the SKUs asked for, resumed for a later order, never read twice a run.
 */
describe("the ERP's VAT rates for orders without their own", () => {
  it("reads only as far as the SKUs asked for, resumes for the next order, and never reads a page twice", async () => {
    const { erp, reads } = pagedErp();
    const rates = erpVatRates(erp);
    expect(await rates(["S12"])).toEqual(new Map([["S12", 0]]));
    // Page 1 holds S12; one page is read ahead.
    expect(reads).toEqual([0, 1, 2]);
    expect(await rates(["S5", "S47"])).toEqual(
      new Map([
        ["S5", 20],
        ["S47", 20],
      ]),
    );
    expect(reads).toEqual([0, 1, 2, 3, 4, 5]);
    // A SKU with no card: the rest is read once, then known missing without a read.
    expect((await rates(["NOPE"])).size).toBe(0);
    expect(reads).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await rates(["NOPE", "S99"])).get("S99")).toBe(0);
    expect(reads).toHaveLength(10);
  });

  it("two orders asking at once share one scan", async () => {
    const { erp, reads } = pagedErp();
    const rates = erpVatRates(erp);
    const [a, b] = await Promise.all([rates(["S31"]), rates(["S32"])]);
    expect([a.get("S31"), b.get("S32")]).toEqual([10, 20]);
    expect(new Set(reads).size).toBe(reads.length);
  });

  it("a failed read is not remembered: the next order asks again from the first page", async () => {
    const { erp, reads } = pagedErp(3);
    const rates = erpVatRates(erp);
    await expect(rates(["S55"])).rejects.toThrow("ERP unavailable");
    expect((await rates(["S55"])).get("S55")).toBe(10);
    expect(reads.slice(0, 4)).toEqual([0, 1, 2, 3]);
  });
});
