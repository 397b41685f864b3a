import { describe, expect, it } from "vitest";
import { expectPath, newUser, registerByApi, signIn } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

describe("files for a system with no API", () => {
  it("uploads a products file, shows each row's result, lists it as the file the sync reads, and deletes files after a confirmation", async () => {
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

    // A newer file of the same kind takes over; deleting it hands the kind back to the older one.
    const newer = "sku;name;vat\nE2E-003;Silgi;20\n";
    await erpCard
      .getByTestId("file-import")
      .locator('input[type="file"]')
      .setInputFiles({ name: "urunler-yeni.csv", mimeType: "text/csv", buffer: Buffer.from(newer) });
    await erpCard.getByRole("button", { name: "Yükle ve kontrol et" }).click();
    await eventually(() => result.textContent()).toContain("1 satır kabul edildi, 0 satır reddedildi.");
    await eventually(() => recent.textContent()).toContain("urunler-yeni.csv");
    const row = (name: string) => recent.getByRole("row").filter({ hasText: name });
    await eventually(() => row("urunler-yeni.csv").textContent()).toContain("Senkronizasyonda");
    expect(await row("urunler.csv").textContent()).not.toContain("Senkronizasyonda");

    // The confirmation, in the panel's words; "Vazgeç" keeps the file.
    await files.getByRole("button", { name: "urunler-yeni.csv dosyasını sil" }).click();
    const dialog = page.getByRole("dialog", { name: "Dosyayı sil" });
    await eventually(() => dialog.textContent()).toContain(
      "urunler-yeni.csv dosyası silinecek. Emin misiniz?",
    );
    expect(await dialog.textContent()).toContain("Sürmekte olan bir aktarım bu dosyayla tamamlanır.");
    await dialog.getByRole("button", { name: "Vazgeç" }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect(await recent.textContent()).toContain("urunler-yeni.csv");

    await files.getByRole("button", { name: "urunler-yeni.csv dosyasını sil" }).click();
    await dialog.getByRole("button", { name: "Sil", exact: true }).click();
    const notice = files.getByTestId("file-delete-notice");
    await eventually(() => notice.textContent()).toContain(
      "urunler-yeni.csv silindi. Bir sonraki senkronizasyon urunler.csv dosyasını okuyacak.",
    );
    await eventually(() => recent.textContent()).not.toContain("urunler-yeni.csv");
    await eventually(() => row("urunler.csv").textContent()).toContain("Senkronizasyonda");
    // The upload result of the deleted file does not outlive it.
    await eventually(() => result.textContent()).toBe("Bu dosya silindi.");

    // The last file of the kind: the next sync goes back to the query.
    await files.getByRole("button", { name: "urunler.csv dosyasını sil" }).click();
    await dialog.getByRole("button", { name: "Sil", exact: true }).click();
    await eventually(() => notice.textContent()).toContain(
      "Bu tür için dosya kalmadı: bir sonraki senkronizasyon sorguyu kullanacak.",
    );
    await eventually(() => files.textContent()).toContain("Henüz dosya yüklenmedi.");
    expect(browser.pageErrors).toEqual([]);
  }, 120_000);
});
