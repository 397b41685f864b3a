import { describe, expect, it, vi } from "vitest";

describe("the server's start", () => {
  it("loads exceljs before it listens, so no call waits on its synchronous load", async () => {
    // The suites share their modules (isolate: false): fresh copies, so no earlier file has loaded it here.
    vi.resetModules();
    const { listenWhenWarm } = await import("../src/bootstrap.ts");
    const { excelLoaded } = await import("../src/platform/excel.ts");
    // The first export used to load it on the request path: about 1.2 s of the event loop.
    expect(excelLoaded()).toBe(false);
    const listened: { loaded: boolean; port: number; host: string }[] = [];
    const app = {
      listen: async (options: { port: number; host: string }) => {
        listened.push({ loaded: excelLoaded(), ...options });
      },
    };
    await listenWhenWarm(app, { port: 3123, host: "127.0.0.1" });
    expect(listened).toEqual([{ loaded: true, port: 3123, host: "127.0.0.1" }]);
  });
});
