import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("HOST: the address the server listens on", () => {
  it("is loopback while the demo (whose password /api/config serves) is on", () => {
    const c = loadConfig({});
    expect(c.demo).not.toBeNull();
    expect(c.host).toBe("127.0.0.1");
  });

  it("is every interface without the demo", () => {
    expect(loadConfig({ DEMO: "0" }).host).toBe("0.0.0.0");
    expect(loadConfig({ DATABASE_URL: "postgres://u@db:5432/ep" }).host).toBe("0.0.0.0");
  });

  it("is what HOST says, and the sandbox is called back on it when it is one address", () => {
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    const one = loadConfig({ HOST: "10.1.2.3", DEMO: "0", PORT: "4000" });
    expect(one.host).toBe("10.1.2.3");
    expect(one.sandboxUrl).toBe("http://10.1.2.3:4000/sandbox");
    expect(loadConfig({ HOST: "::", PORT: "4000" }).sandboxUrl).toBe("http://127.0.0.1:4000/sandbox");
  });

  it("refuses a value that is no address, naming HOST", () => {
    expect(() => loadConfig({ HOST: "every interface" })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: "every interface" })).toThrow(/HOST/);
  });
});
