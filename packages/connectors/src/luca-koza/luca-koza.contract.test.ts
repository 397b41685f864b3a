import { beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ErpConnector } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import {
  ConformanceTally,
  closeAfterAll,
  describeVersionPin,
  expectConformance,
  expectOrderWritesRefused,
} from "../testing/contract-suite";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { createLucaKozaConnector } from "./connector";
import { type LucaKozaEmulator, startLucaKozaEmulator } from "./emulator/server";
import { judgeLucaKozaRequest } from "./judge/requests";
import { LUCA_KOZA_VERSION_PIN } from "./judge/rules";

let emu: LucaKozaEmulator;
let conn: ErpConnector;
const logs: HttpLogEntry[] = [];
const store = new InMemoryRateLimitStore();

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, logs, {
    budget: { requests: 500, windowMs: 1000 },
    batch: { page: 25 },
    ...over,
  });
}

const conformance = new ConformanceTally(judgeLucaKozaRequest);

beforeAll(async () => {
  emu = await startLucaKozaEmulator({ seed: 17, productCount: 60 });
  conn = createLucaKozaConnector(emu.credentials, ctx());
});

closeAfterAll(() => emu);

conformance.takeAfterEach(() => emu);

describe("Luca Koza connector against the emulator", () => {
  it("opens a session, selects the only company/branch and names it", async () => {
    const info = await conn.testConnection();
    expect(info.description).toContain("Deneme Ticaret");
    expect(info.description).toContain("2 depo");
    const bad = createLucaKozaConnector({ ...emu.credentials, userPassword: "yanlis" }, ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    expect(JSON.stringify(logs)).not.toContain(emu.credentials.userPassword);
  });

  it("asks for a branch id when the user has several, in Turkish, and works once one is set", async () => {
    const multi = await startLucaKozaEmulator({
      seed: 2,
      productCount: 5,
      branches: [
        { id: 1, ack: "A Şirketi / Merkez" },
        { id: 2, ack: "A Şirketi / Şube" },
      ],
    });
    try {
      const e = await caught(createLucaKozaConnector(multi.credentials, ctx()).testConnection());
      expect(e.reason).toBe("config");
      expect(e.merchantMessage).toContain("A Şirketi / Şube (2)");
      const ok = await createLucaKozaConnector(
        { ...multi.credentials, branchId: "2" },
        ctx(),
      ).testConnection();
      expect(ok.description).toContain("A Şirketi / Şube");
      expect(describeFailures(judgeRequests(multi.recorder.list(), judgeLucaKozaRequest))).toBe("");
    } finally {
      await multi.close();
    }
  });

  it("reads every stock card with its category path, KDV and barcode", async () => {
    const { items, pages } = await readAllPages((t) => conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(60);
    expect(pages).toBe(3);
    expect(items.map((p) => p.sku)).toEqual(emu.cards.map((c) => c.kartKodu));
    for (const p of items) {
      expect([0, 1, 10, 20]).toContain(p.vatRate);
      expect(p.categoryPath).toHaveLength(2);
      expect(p.variants[0]?.barcodes[0]).toMatch(/^\d{13}$/);
    }
    expect((await conn.listCategories()).items.some((c) => c.parentId)).toBe(true);
  });

  it("reads on-hand per depot, one depot a page", async () => {
    const { items, pages } = await readAllPages((t) => conn.listStock({ pageToken: t }));
    expect(pages).toBe(2);
    const want = [...emu.onHand.entries()].flatMap(([d, rows]) =>
      rows.map((r) => `${r.kartKodu}@${d}=${r.miktar}`),
    );
    expect(items.map((s) => `${s.sku}@${s.location}=${s.qty}`).sort()).toEqual(want.sort());
    const one = await readAllPages((t) => conn.listStock({ pageToken: t, locations: ["1452"] }));
    expect(new Set(one.items.map((s) => s.location))).toEqual(new Set(["1452"]));
  });

  it("reads each card's sales price lists", async () => {
    const groups = await conn.listPriceGroups();
    expect(groups.map((g) => g.id)).toEqual(["Perakende", "Toptan"]);
    const { items } = await readAllPages((t) =>
      conn.listPrices({ pageToken: t, priceGroups: ["Perakende"] }),
    );
    expect(items).toHaveLength(60);
    expect(items.every((p) => p.vatIncluded && p.amount > 0)).toBe(true);
  });

  it("opens the session again when Koza answers 'Login olunmalı'", async () => {
    emu.dropSessions();
    const locs = await conn.listStockLocations();
    expect(locs).toHaveLength(2);
  });

  it("says in Turkish that orders are not transferred, and sends nothing", async () => {
    await expectOrderWritesRefused(conn, () => emu.counters.requests, "LucaKoza");
  });
});

describe("Luca Koza faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    emu.faults.set({
      retryAfterSeconds: 1,
      hangMs: 1_000,
      queue: [{ kind: "429" }, { kind: "5xx" }, { kind: "timeout" }],
    });
    expect(await conn.listStockLocations()).toHaveLength(2);
    expect(emu.counters.faults["429"]).toBe(1);
    expect(emu.counters.faults["5xx"]).toBe(1);
    expect(emu.counters.faults.timeout).toBe(1);
  });

  it("a session the server drops mid-run (code 1002 inside HTTP 200) is opened again", async () => {
    emu.faults.enqueue({ kind: "auth" });
    expect(await conn.listStockLocations()).toHaveLength(2);
  });
});

describe("Luca Koza conformance", () => {
  it("the judge refuses what the document does not describe", () => {
    const req = (
      path: string,
      body: unknown,
      headers: Record<string, string>,
      query: Record<string, unknown> = {},
    ) => ({
      at: 0,
      method: "POST",
      path,
      query,
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    const cookie = { cookie: "JSESSIONID=ABC" };
    expect(
      judgeLucaKozaRequest(req("/ListeleStkSkart.do", {}, { ...cookie, "no-paging": "true" }))?.problems,
    ).toEqual([]);
    expect(judgeLucaKozaRequest(req("/ListeleStkSkart.do", {}, cookie))?.problems).toEqual([
      "list methods are sent with No-Paging: true",
    ]);
    expect(judgeLucaKozaRequest(req("/ListeleStkDepo.do", {}, { "no-paging": "true" }))?.problems).toEqual([
      "session cookie (JSESSIONID) missing",
    ]);
    expect(
      judgeLucaKozaRequest(req("/GuncelleYtkSirketSubeDegistir.do", { orgSirketSubeId: "5" }, cookie))
        ?.problems,
    ).toEqual(["body must be {orgSirketSubeId: Long}"]);
    expect(judgeLucaKozaRequest(req("/EkleStsSiparis.do", {}, cookie))).toBeUndefined();
  });

  it("every request the connector sent was judged and none was rejected", () => {
    expectConformance("luca-koza", conformance.report, { requests: 31 });
  });
});

describeVersionPin("API version (issue 32)", LUCA_KOZA_VERSION_PIN);
