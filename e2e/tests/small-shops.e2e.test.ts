import { type SentosEmulator, startSentosEmulator } from "@ep/connectors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
let shop: SentosEmulator;

beforeAll(async () => {
  shop = await startSentosEmulator({ seed: 13, productCount: 20, orderCount: 2 });
});
afterAll(async () => {
  await shop?.close();
});

describe("a shop that cannot do every job", () => {
  it("says on the connection form what Sentos cannot do, and its connection test says it only reads", async () => {
    const user = newUser({ erpType: 9, ecommerceType: 3 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    const card = page.getByTestId("connection-ecommerce");
    const note = card.getByTestId("limitations-ecommerce");
    await note.waitFor();
    expect(await note.textContent()).toContain("Bu sistemin bağlantısı her şeyi yapamaz:");
    expect(await note.textContent()).toContain("yalnızca ürünleri, depoları ve siparişleri okur");
    // Mikro's card has no such note.
    expect(await page.getByTestId("limitations-erp").count()).toBe(0);
    const input = (label: string) => card.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
    await input("API adresi").fill(shop.credentials.apiUrl);
    await input("API anahtarı").fill(shop.credentials.apiKey);
    await input("API şifresi").fill(shop.credentials.apiSecret);
    await card.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await expect
      .poll(() => card.getByTestId("connection-test-ecommerce").textContent(), { timeout: 15_000 })
      .toContain("yalnızca okuma");
    await page.close();
  });
});
