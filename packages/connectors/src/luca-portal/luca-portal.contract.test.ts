/**
 * LucaPortal has no API (VERIFIED.md): what stands for its judge is "nothing is sent". Every call of the
 * connector either answers from here (the connection test) or is refused as "unsupported" in Turkish,
 * and no request leaves the process. The files merchants upload are judged by the UBL-TR XSD and GİB's
 * schematron in the server's and the e-invoice package's suites (`invoices/luca-portal-export.test.ts`).
 */
import http from "node:http";
import https from "node:https";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectorError } from "../sdk/errors";
import { lucaPortalModule } from "./index";

describe("LucaPortal: nothing is sent, every operation but the connection test is refused", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers its connection test with the notice and refuses every read and write without a request", async () => {
    const sent = [vi.spyOn(globalThis, "fetch"), vi.spyOn(http, "request"), vi.spyOn(https, "request")];
    const create = lucaPortalModule.create;
    if (!create) throw new Error("LucaPortal has no connector factory");
    const conn = create({}, {} as never);
    const info = await conn.testConnection();
    expect(info.ok).toBe(true);
    expect(info.description).toContain("API'si yok");

    const operations = Object.getOwnPropertyNames(Object.getPrototypeOf(conn)).filter(
      (name) => name !== "constructor" && name !== "testConnection" && !name.startsWith("notA"),
    );
    expect(operations.length).toBeGreaterThan(5);
    for (const name of operations) {
      const call = (conn as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!;
      const error = await call.call(conn, {}).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).reason, name).toBe("unsupported");
      expect((error as ConnectorError).merchantMessage, name).toMatch(/[ğüşıöçİ]/);
    }
    for (const spy of sent) expect(spy).not.toHaveBeenCalled();
  });
});
