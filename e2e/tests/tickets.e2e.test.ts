import { describe, expect, it } from "vitest";
import {
  combo,
  expectPath,
  field,
  newUser,
  registerByApi,
  signIn,
  signInSupport,
  waitForShell,
} from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

describe("tickets between a company and the support console", () => {
  it("opens a ticket, support answers it, the company sees the answer, replies and closes it", async () => {
    const user = newUser();
    await registerByApi(user);
    const subject = `Ürünler aktarılmıyor ${user.email.slice(10, 18)}`;

    // The company opens a ticket with an attachment.
    const customer = await browser.newPage();
    await signIn(customer, user.email, user.password);
    await customer.goto("/tickets/create");
    await waitForShell(customer);
    await customer.getByTestId("ticket-submit").click();
    await expect.poll(() => customer.getByText("Kategori seçimi zorunludur.").count()).toBe(1);
    await combo(customer, "Kategori").click();
    await customer.getByRole("option", { name: "Entegrasyon" }).click();
    await combo(customer, "Alt Kategori").click();
    await customer.getByRole("option", { name: "Ürün Aktarımı" }).click();
    await field(customer, "Konu").fill(subject);
    await field(customer, "Mesaj").fill("SKU-1 mağazaya gitmedi.");
    await customer
      .locator('input[type="file"]')
      .setInputFiles({ name: "ekran.png", mimeType: "image/png", buffer: PNG });
    await customer.getByTestId("ticket-submit").click();
    await customer.waitForURL(/\/tickets\/\d+$/);
    const ticketPath = new URL(customer.url()).pathname;
    await expect.poll(() => customer.getByTestId("ticket-status").first().textContent()).toBe("Açık");
    expect(await customer.getByRole("button", { name: "ekran.png" }).count()).toBe(1);
    expect(await customer.getByTestId("tickets-button").getAttribute("data-answered")).toBe("0");

    // Support signs in on the same screen, lands in the console and answers.
    const support = await browser.newPage();
    await signInSupport(support);
    const row = support.getByTestId("support-inbox-row").filter({ hasText: subject });
    await row.getByRole("link", { name: "Aç" }).click();
    await support.getByTestId("support-reply-input").fill("Barkodu ekleyip görevi tekrar çalıştırınız.");
    await support.getByTestId("support-reply-send").click();
    await expect.poll(() => support.getByTestId("ticket-status").first().textContent()).toBe("Cevaplandı");

    // The company sees the dot, the count, the 'F' circle and the answer.
    await customer.goto("/dashboard");
    await waitForShell(customer);
    await expect.poll(() => customer.getByTestId("tickets-button").getAttribute("data-answered")).toBe("1");
    expect(await customer.getByTestId("ticket-menu-count").textContent()).toBe("1");
    // The header ticket icon is hidden (spec section 2): the side menu leads to the tickets.
    expect(await customer.getByTestId("tickets-button").isVisible()).toBe(false);
    await customer.getByRole("link", { name: /Ticket Destek/ }).click();
    const listRow = customer.getByRole("row").filter({ hasText: subject });
    await listRow.waitFor();
    expect(await listRow.getByTestId("ticket-support-avatar").textContent()).toBe("F");
    expect(await listRow.getByTestId("ticket-status").textContent()).toBe("Cevaplandı");
    await listRow.getByRole("link", { name: "Detay" }).click();
    await expectPath(customer, ticketPath);
    await customer.getByText("Barkodu ekleyip görevi tekrar çalıştırınız.").waitFor();

    // The company replies (Cevap Bekliyor), then closes the ticket (Kapatıldı).
    await customer.getByTestId("ticket-reply-input").fill("Ekledim, yine olmadı.");
    await customer.getByTestId("ticket-reply-send").click();
    await expect
      .poll(() => customer.getByTestId("ticket-status").first().textContent())
      .toBe("Cevap Bekliyor");
    await customer.getByText("Ekledim, yine olmadı.").waitFor();
    await customer.getByTestId("ticket-close").click();
    await customer.getByTestId("ticket-close-confirm").click();
    await expect.poll(() => customer.getByTestId("ticket-status").first().textContent()).toBe("Kapatıldı");
    await customer.getByTestId("ticket-closed-note").waitFor();

    // Support sees the same conversation and state.
    await support.reload();
    await expect.poll(() => support.getByTestId("ticket-status").first().textContent()).toBe("Kapatıldı");
    expect(await support.getByTestId("ticket-reply").count()).toBe(3);
  });
});
