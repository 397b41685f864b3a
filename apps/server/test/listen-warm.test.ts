import { describe, expect, it } from "vitest";
import { listenWhenWarm } from "../src/bootstrap.ts";
import { excelLoaded } from "../src/platform/excel.ts";

describe("the server's start", () => {
  it("loads exceljs before it listens, so no call waits on its synchronous load", async () => {
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
