import { describe, expect, it } from "vitest";
import { call, registerAndLogin } from "./harness.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("sandbox-metered", { host: "0.0.0.0" });

describe("built-in sandboxes of the metered ERPs", () => {
  it.each([
    [5, "dia", "DİA"],
    [21, "logo-isbasi", "Logo Is Basi"],
  ])(
    "a company registered with ERP %i connects to its own %s sandbox in one call",
    async (erpType, system, label) => {
      const { token } = await registerAndLogin(server.app, { erpType });
      const res = await call(server.app, "POST", "/api/sandbox/connect", { token });
      expect(res.status).toBe(200);
      expect(res.body.data.erp).toMatchObject({
        productType: erpType,
        isEmulated: true,
        lastTest: { ok: true },
      });
      expect(res.body.data.erp.lastTest.message).toContain(label);
      expect(JSON.stringify(res.body.data.erp.values)).toContain(`/sandbox/${system}/`);
      const usage = await call(server.app, "GET", "/api/settings/connection-usage", { token });
      expect(usage.body.data).toHaveLength(1);
      expect(usage.body.data[0]).toMatchObject({ system, connectionType: "erp" });
    },
    60_000,
  );
});
