import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 21, erp: { productCount: 60 }, shop: { productCount: 40 } });
});
afterAll(async () => {
  await c.close();
  await t.close();
});

describe("category runs say what they did (issue 40: every IKAS category run read '25 changed, 0 written')", () => {
  it("counts only the categories it created as changed, and names the ones it found in the shop", async () => {
    const before = c.shop.state.categories.size;
    const first = await runJob(t, c, "CategoryIntegration");
    expect(first.status).toBe("Succeeded");
    const created = c.shop.state.categories.size - before;
    expect(first.counts.written).toBe(created);
    expect(first.counts.changed).toBe(created);
    // The ERP's other categories were already in the shop: bound, not written, and the report says so.
    const adopted = first.counts.read - created;
    expect(adopted).toBeGreaterThan(0);
    expect(first.report).toContain(`${adopted} kategori mağazada zaten vardı`);

    const second = await runJob(t, c, "CategoryIntegration");
    expect(second.status).toBe("Succeeded");
    expect(second.counts).toMatchObject({ changed: 0, written: 0 });
    expect(second.report).not.toContain("mağazada zaten vardı");
  });
});
