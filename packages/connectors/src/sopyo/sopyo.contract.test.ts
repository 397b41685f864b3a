/**
 * Sopyo connector against its emulator: login, order pages and details in both wrappers, unsupported
 * catalogue writes, and faults (429 with Retry-After, 5xx, timeout, expired token). Every request is judged
 * at the end (./judge/requests.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ShopConnector } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { readAllPages, testContext } from "../testing/contract";
import { describeVersionPin, expectConformance, expectShopWritesRefused } from "../testing/contract-suite";
import { judgeRequests, type RecordedRequest } from "../testing/recorder";
import { createSopyoConnector, type SopyoConnector } from "./connector";
import { type SopyoEmulator, startSopyoEmulator } from "./emulator/server";
import { judgeSopyoRequest } from "./judge/requests";
import { SOPYO_VERSION_PIN } from "./judge/rules";

let emu: SopyoEmulator;
const judged: RecordedRequest[] = [];
const logs: HttpLogEntry[] = [];

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(new InMemoryRateLimitStore(), logs, {
    budget: { requests: 1000, windowMs: 1000 },
    ...over,
  });
}

const connect = (over: Partial<ConnectorContext> = {}) =>
  createSopyoConnector(emu.credentials, ctx(over)) as SopyoConnector;

beforeAll(async () => {
  emu = await startSopyoEmulator({ seed: 5, orderCount: 40 });
});

afterAll(async () => {
  judged.push(...emu.recorder.list());
  const report = judgeRequests(judged, judgeSopyoRequest);
  await emu.close();
  expectConformance("sopyo", report);
});

describe("Sopyo orders", () => {
  it("logs in with the API token and reads every order, both detail wrappers", async () => {
    const shop = connect();
    const all = (await readAllPages((t) => shop.listOrders({ pageToken: t }))).items;
    expect(all).toHaveLength(40);
    expect(all[0]?.orderNo).toMatch(/^WEB-/);
    expect(all[0]?.lines[0]?.sku).toMatch(/^STK-/);
    expect(all[0]?.customer.email).toContain("@");
    // Internet-sale data: the shipment's carrier and tracking number; Sopyo shows no payment.
    const first = emu.orders[0]?.cargo_info as { tracking_no: string } | undefined;
    expect(all[0]?.delivery).toEqual({ carrier: "Yurtiçi Kargo", trackingNumber: first?.tracking_no });
    expect(all[0]?.payment).toBeUndefined();
    expect(emu.counters.logins).toBe(1);
    expect(shop.detailWrappersSeen).toEqual({ bare: 20, data: 20 });
    // Which wrapper was seen goes to the log, once per wrapper.
    expect(logs.map((l) => l.operation).filter((o) => o.includes("wrapper"))).toEqual([
      'getOrder: detail wrapper "bare"',
      'getOrder: detail wrapper "data"',
    ]);
  });

  it("reports the wrapper on the connection test", async () => {
    const info = await connect().testConnection();
    expect(info.description).toContain("yalnızca sipariş");
    expect(info.details?.detailWrappers).toEqual({ bare: 8, data: 7 });
  });

  it("a wrong API token is an auth failure", async () => {
    const bad = createSopyoConnector({ ...emu.credentials, apiToken: "yanlis" }, ctx());
    await expect(bad.listOrders()).rejects.toMatchObject({ reason: "auth", httpStatus: 401 });
  });

  it("catalogue writes are refused in Turkish without calling Sopyo", async () => {
    const shop: ShopConnector = connect();
    await expectShopWritesRefused(shop, () => emu.counters.requests, /Sopyo/);
    expect((await shop.findProductsBySku(["STK-1"])).size).toBe(0);
  });
});

describe("Sopyo faults", () => {
  it("retries after 429 with Retry-After, 5xx and a timeout", async () => {
    emu.faults.set({
      hangMs: 3000,
      queue: [
        { kind: "429", operation: "listOrders" },
        { kind: "5xx", operation: "getOrder" },
        { kind: "timeout", operation: "getOrder" },
      ],
    });
    const page = await connect({ timeoutMs: 300 }).listOrders();
    expect(page.items).toHaveLength(15);
    expect(emu.counters.faults).toMatchObject({ "429": 1, "5xx": 1, timeout: 1 });
    emu.faults.clear();
  });

  it("logs in again when the token expired", async () => {
    const shop = connect();
    await shop.listOrders();
    const before = emu.counters.logins;
    emu.expireTokens();
    expect((await shop.listOrders()).items).toHaveLength(15);
    expect(emu.counters.logins).toBe(before + 1);
  });
});

describeVersionPin("API version (issue 32)", SOPYO_VERSION_PIN);

describe("Sopyo order pages", () => {
  it("reads a smaller page when asked (the connection check's word on its calls) and goes on from the first unread order", async () => {
    const shop = connect();
    const first = await shop.listOrders({ pageSize: 4 });
    expect(first.items).toHaveLength(4);
    const ids: string[] = first.items.map((o) => o.id);
    let token = first.nextPageToken;
    while (token) {
      const page = await shop.listOrders({ pageToken: token, pageSize: 7 });
      ids.push(...page.items.map((o) => o.id));
      token = page.nextPageToken;
    }
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });
});
