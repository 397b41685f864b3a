import { type IkasEmulator, type MikroEmulator, startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPath, newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
/** Waits for a value: saving and testing call the live systems, which may take a few seconds. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
let erp: MikroEmulator;
let shop: IkasEmulator;

beforeAll(async () => {
  erp = await startMikroEmulator({ host: "127.0.0.1", seed: 11, productCount: 10 });
  // Two more shop products than ERP items: shop codes no ERP code is bound to, for the matching steps.
  shop = await startIkasEmulator({ host: "127.0.0.1", seed: 11, productCount: 12, orderCount: 0 });
});
afterAll(async () => {
  await Promise.all([erp?.close(), shop?.close()]);
});

describe("connections from an empty company", () => {
  it("connects Mikro and IKAS, says in Turkish when a secret is wrong, sets options, previews and matches", async () => {
    const user = newUser({ erpType: 9, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    // From the settings overview to the connections page.
    await page.goto("/settings");
    await waitForShell(page);
    await page
      .getByRole("main")
      .getByRole("link", { name: /^API Bağlantıları/ })
      .click();
    await expectPath(page, "/settings/api-keys");

    const erpCard = page.getByTestId("connection-erp");
    // A field by its label; a required one's label ends with an asterisk.
    const input = (card: typeof erpCard, label: string) =>
      card.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*\\*?$`));
    await input(erpCard, "Mikro API adresi").fill(erp.credentials.apiUrl);
    await input(erpCard, "API anahtarı").fill(erp.credentials.apiKey);
    await input(erpCard, "Firma kodu").fill(erp.credentials.firmCode);
    await input(erpCard, "Çalışma yılı").fill(erp.credentials.period);
    await input(erpCard, "Kullanıcı kodu").fill(erp.credentials.userCode);
    await input(erpCard, "Şifre").fill(erp.credentials.password);
    await erpCard.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await eventually(() => erpCard.getByTestId("connection-test-erp").textContent()).toContain(
      "Bağlantı başarılı. Mikro:",
    );
    await erpCard.getByRole("button", { name: "Kaydet" }).click();
    await eventually(() => page.getByText("Bağlantı ayarları kaydedildi.").count()).toBeGreaterThan(0);

    const shopCard = page.getByTestId("connection-ecommerce");
    await input(shopCard, "Mağaza adı").fill(shop.credentials.storeName);
    await input(shopCard, "Client ID").fill(shop.credentials.clientId);
    await input(shopCard, "Client Secret").fill(shop.credentials.clientSecret);
    await input(shopCard, "API adresi").fill(shop.credentials.apiUrl);
    await input(shopCard, "Token adresi").fill(shop.credentials.tokenUrl);
    await shopCard.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await eventually(() => shopCard.getByTestId("connection-test-ecommerce").textContent()).toContain(
      "ikas mağazası",
    );
    await shopCard.getByRole("button", { name: "Kaydet" }).click();
    await eventually(() => page.getByText("Entegrasyon görevleriniz hazır.").count()).toBeGreaterThan(0);

    // Secrets come back masked: the field is empty, the placeholder says one is stored.
    await eventually(() => input(shopCard, "Client Secret").getAttribute("placeholder")).toContain("Kayıtlı");
    expect(await input(shopCard, "Client Secret").inputValue()).toBe("");

    await input(shopCard, "Client Secret").fill("yanlis-gizli-anahtar");
    await shopCard.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await eventually(() => shopCard.getByTestId("connection-test-ecommerce").textContent()).toContain(
      "IKAS sistemine ulaşıldı ancak kimlik bilgileri kabul edilmedi",
    );
    expect(await shopCard.getByText("Bağlantı kurulamadı").count()).toBe(1);

    // The jobs the saved pair created are on the integration settings page, with their options.
    await page.goto("/settings/integration/StockIntegration");
    await waitForShell(page);
    const minStock = page.getByRole("textbox", { name: "Gösterilecek en az stok" });
    await eventually(() => minStock.inputValue()).toBe("0");
    await eventually(() => page.getByRole("switch", { name: "Aktif" }).isChecked()).toBe(true);
    await minStock.fill("5");
    await page.getByRole("button", { name: "Değişiklikleri Kaydet" }).click();
    await eventually(() => page.getByText("Ayarlar kaydedildi.", { exact: false }).count()).toBeGreaterThan(
      0,
    );
    await page.reload();
    await waitForShell(page);
    await eventually(() => minStock.inputValue()).toBe("5");

    // Price preview: a first run sets the prices, then a price fall beyond the limit trips the guard rail.
    await page.goto("/settings/integration/PriceIntegration");
    await waitForShell(page);
    // The job is switched off first, so only the runs started here change the shop's prices.
    await page.getByRole("switch", { name: "Aktif" }).uncheck();
    await page.getByRole("button", { name: "Görevi Kaydet" }).click();
    await eventually(() => page.getByText("İşlem başarılı.").count()).toBeGreaterThan(0);
    const previewBox = page.getByTestId("run-preview");
    const runNow = page.getByRole("button", { name: "Şimdi Çalıştır" });
    await page.getByRole("button", { name: "Önizle" }).click();
    await eventually(() => previewBox.textContent()).toMatch(/fiyat değişecek|değişecek kayıt yok/);
    if (await runNow.isEnabled()) await runNow.click();
    await eventually(async () => {
      await page.getByRole("button", { name: "Önizle" }).click();
      return previewBox.textContent();
    }).toContain("Bir sonraki çalışmada değişecek kayıt yok.");
    erp.state.setPrice([...erp.state.stokByKod.keys()][0]!, 1, 1);
    await page.getByRole("button", { name: "Önizle" }).click();
    await eventually(() => previewBox.textContent()).toContain("%30 sınırından fazla düşecek");
    expect(await runNow.isDisabled()).toBe(true);
    await page.getByRole("checkbox", { name: "Değişiklikleri kontrol ettim, yine de çalıştır" }).check();
    expect(await runNow.isEnabled()).toBe(true);

    // ERP matching on the product job's page: a link to an existing shop code, a refusal otherwise.
    await page.goto("/settings/integration/ProductIntegration");
    await waitForShell(page);
    // Shop codes the runs above did not bind to an ERP code (the ERP does not have them).
    const [shopSku, otherSku] = [...shop.state.skuIndex.keys()].filter(
      (sku) => !erp.state.stokByKod.has(sku),
    );
    await page.getByRole("textbox", { name: "ERP stok kodu" }).fill("ERP-OZEL-1");
    await page.getByRole("textbox", { name: "Mağaza stok kodu" }).fill("YOK-BOYLE-KOD");
    await page.getByRole("button", { name: "Eşleştir" }).click();
    await eventually(() =>
      page.getByText("Mağazada bu stok koduna sahip ürün bulunamadı.").count(),
    ).toBeGreaterThan(0);
    // A shop product already bound to its own ERP code is refused: one shop product, one ERP item.
    await page.getByRole("textbox", { name: "Mağaza stok kodu" }).fill([...erp.state.stokByKod.keys()][1]!);
    await page.getByRole("button", { name: "Eşleştir" }).click();
    await eventually(() =>
      page.getByText("Bu mağaza ürünü ERP'deki başka bir stok koduna zaten bağlı.", { exact: false }).count(),
    ).toBeGreaterThan(0);
    await page.getByRole("textbox", { name: "Mağaza stok kodu" }).fill(shopSku!);
    await page.getByRole("button", { name: "Eşleştir" }).click();
    await eventually(() => page.getByRole("cell", { name: "ERP-OZEL-1", exact: true }).count()).toBe(1);

    // A workbook saved in Excel: a header, a match, an unknown shop code; each row answered.
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Eşleştirme").addRows([
      ["ERP Kodu", "Mağaza Kodu"],
      ["ERP-EXCEL-1", otherSku!],
      ["ERP-EXCEL-2", "YOK-BOYLE-KOD"],
    ]);
    const workbook = await book.xlsx.writeBuffer();
    await page.locator('input[type="file"]').setInputFiles({
      name: "eslestirme.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from(workbook as ArrayBuffer),
    });
    const importStatus = page.getByRole("status").filter({ hasText: "satır kabul edildi" });
    await eventually(() => importStatus.textContent()).toContain("1 satır kabul edildi, 1 satır reddedildi.");
    expect(await importStatus.textContent()).toContain("Satır 3: ERP-EXCEL-2 → YOK-BOYLE-KOD");
    await eventually(() => page.getByRole("cell", { name: "ERP-EXCEL-1", exact: true }).count()).toBe(1);
    expect(browser.pageErrors).toEqual([]);
  });
});
