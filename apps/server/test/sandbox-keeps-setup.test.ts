import { describe, expect, it } from "vitest";
import { call, registerAndLogin } from "./harness.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("sandbox-keeps-setup");

const sqlConfig = JSON.stringify({
  products: {
    sql: "SELECT STOK_KODU, STOK_ADI FROM STOKLAR",
    columns: { sku: "STOK_KODU", name: "STOK_ADI" },
  },
});

type Overview = {
  erp: { productType: number; isEmulated: boolean; values: Record<string, string> } | null;
  keptLogins: { erp: Array<{ productType: number; values: Record<string, string> }> };
};

describe("the sandbox and back erase nothing (issue 40: a Zirve setup lost to the sandbox button)", () => {
  it("keeps a Zirve company's query, alias and dialect through the sandbox, and saving Zirve again restores them", async () => {
    const a = await registerAndLogin(server.app, { erpType: 13, ecommerceType: 1 });
    const saved = await call(server.app, "POST", "/api/settings/connection-setting-update/erp/13", {
      token: a.token,
      body: { fields: { sqlAlias: "zirve-merkez", sqlDialect: "mssql", sqlConfig } },
    });
    expect(saved.status).toBe(200);

    const sandbox = await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(sandbox.status).toBe(200);
    const during = (await call(server.app, "GET", "/api/settings/connections", { token: a.token })).body
      .data as Overview;
    expect(during.erp?.isEmulated).toBe(true);
    // The form, choosing Zirve again, finds the setup as it was saved.
    const kept = during.keptLogins.erp.find((k) => k.productType === 13);
    expect(kept?.values).toEqual({ sqlAlias: "zirve-merkez", sqlDialect: "mssql", sqlConfig });

    // Back to Zirve, sending only what the form changed: nothing else is lost.
    const back = await call(server.app, "POST", "/api/settings/connection-setting-update/erp/13", {
      token: a.token,
      body: { fields: { sqlAlias: "zirve-merkez" } },
    });
    expect(back.status).toBe(200);
    const after = (await call(server.app, "GET", "/api/settings/connections", { token: a.token })).body
      .data as Overview;
    expect(after.erp).toMatchObject({
      productType: 13,
      isEmulated: false,
      values: { sqlAlias: "zirve-merkez", sqlDialect: "mssql", sqlConfig },
    });
  }, 60_000);

  it("a real login of the sandbox's own system comes back with its secrets, and the sandbox login is never kept", async () => {
    const a = await registerAndLogin(server.app, { erpType: 9, ecommerceType: 1 });
    const ikas = await call(server.app, "POST", "/api/settings/connection-setting-update/ecommerce/1", {
      token: a.token,
      body: {
        fields: { storeName: "magazam", clientId: "gercek-istemci", clientSecret: "gercek-sir" },
      },
    });
    expect(ikas.status).toBe(200);
    await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    const during = (await call(server.app, "GET", "/api/settings/connections", { token: a.token })).body.data;
    const kept = during.keptLogins.ecommerce.find((k: { productType: number }) => k.productType === 1);
    expect(kept).toMatchObject({
      values: { storeName: "magazam", clientId: "gercek-istemci" },
      secretsSet: ["clientSecret"],
    });
    expect(during.keptLogins.ecommerce).toHaveLength(1);

    // "Gerçek sisteme geç": the form sends the kept plain fields, the secret left empty keeps the kept one.
    const back = await call(server.app, "POST", "/api/settings/connection-setting-update/ecommerce/1", {
      token: a.token,
      body: { fields: { storeName: "magazam", clientId: "gercek-istemci", clientSecret: "" } },
    });
    expect(back.status).toBe(200);
    expect(back.body.data.connection).toMatchObject({ isEmulated: false, secretsSet: ["clientSecret"] });

    // Another company sees none of it.
    const b = await registerAndLogin(server.app, { erpType: 9, ecommerceType: 1 });
    const other = (await call(server.app, "GET", "/api/settings/connections", { token: b.token })).body.data;
    expect(other.keptLogins).toEqual({ erp: [], ecommerce: [], einvoice: [] });
  }, 60_000);
});
