import { describe, expect, it } from "vitest";
import { newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

describe("a system past its vendor's end of support", () => {
  it("says on the Dynamics AX 2012 connection card that Microsoft's support ended, in Turkish", async () => {
    const user = newUser({ erpType: 7, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    const warning = page.getByTestId("connection-erp").getByTestId("support-ended-erp");
    await warning.waitFor();
    expect(await warning.textContent()).toContain("üreticinin desteği 10.01.2023 tarihinde sona erdi");
    expect(await warning.textContent()).toContain("desteklenen bir sürüme geçişinizi planlayınız");
    // IKAS publishes no end of support: its card has no such warning.
    expect(await page.getByTestId("support-ended-ecommerce").count()).toBe(0);
    await page.close();
  });
});
