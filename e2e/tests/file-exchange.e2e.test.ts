import { describe, expect, it } from "vitest";
import { expectPath, newUser, registerByApi, signIn } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

describe("files for a system with no API", () => {
  it("uploads a products file, shows each row's result, and lists it as the file the sync reads", async () => {
    const user = newUser({ erpType: 12, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/api-keys");
    await expectPath(page, "/settings/api-keys");

    // Gizsoft: nothing to fill for files only; saving gives the section its connection.
    const erpCard = page.getByTestId("connection-erp");
    await erpCard.getByRole("button", { name: "Kaydet" }).click();
    await eventually(() => page.getByText("Bağlantı ayarları kaydedildi.").count()).toBeGreaterThan(0);

    const files = erpCard.getByTestId("file-exchange");
    await eventually(() => files.textContent()).toContain(
      "API'si olmayan sistemler: yapılandırılmış eşleme veya dosya ile çalışır.",
    );
    // Empty states before any file (after the loading state).
    await eventually(() => files.textContent()).toContain("Henüz dosya yüklenmedi.");
    expect(await files.textContent()).toContain("İzlenen klasör yok.");

    const csv = "sku;name;vat\nE2E-001;Kalem;20\nE2E-002;Defter;10\n;Kodsuz;20\n";
    await erpCard
      .getByTestId("file-import")
      .locator('input[type="file"]')
      .setInputFiles({ name: "urunler.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await erpCard.getByRole("button", { name: "Yükle ve kontrol et" }).click();

    const result = erpCard.getByTestId("file-import-result");
    await eventually(() => result.textContent()).toContain("2 satır kabul edildi, 1 satır reddedildi.");
    expect(await result.textContent()).toContain("Bir sonraki senkronizasyon bu dosyayı okuyacak");
    const rows = result.getByTestId("file-rows");
    await eventually(() => rows.getByRole("row").count()).toBe(4);
    expect(await rows.getByRole("row").nth(3).textContent()).toContain("sku boş.");

    const recent = files.getByTestId("file-imports");
    await eventually(() => recent.textContent()).toContain("urunler.csv");
    expect(await recent.textContent()).toContain("Senkronizasyonda");
    expect(await recent.textContent()).toContain("2 kabul, 1 red");
    expect(browser.pageErrors).toEqual([]);
  });
});
