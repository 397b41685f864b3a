import { describe, expect, it } from "vitest";
import { caught, readAllPages } from "../testing/contract";
import {
  contractSuite,
  describeVersionPin,
  expectConformance,
  expectOrderWritesRefused,
  expectRetriedThroughFaults,
} from "../testing/contract-suite";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { createLucaKozaConnector } from "./connector";
import { startLucaKozaEmulator } from "./emulator/server";
import { judgeLucaKozaRequest } from "./judge/requests";
import { LUCA_KOZA_VERSION_PIN } from "./judge/rules";

const suite = contractSuite({
  start: () => startLucaKozaEmulator({ seed: 17, productCount: 60 }),
  connect: (emu, ctx) => createLucaKozaConnector(emu.credentials, ctx),
  judge: judgeLucaKozaRequest,
  context: { budget: { requests: 500, windowMs: 1000 }, batch: { page: 25 } },
});

describe("Luca Koza connector against the emulator", () => {
  it("opens a session, selects the only company/branch and names it", async () => {
    const info = await suite.conn.testConnection();
    expect(info.description).toContain("Deneme Ticaret");
    expect(info.description).toContain("2 depo");
    const bad = createLucaKozaConnector({ ...suite.emu.credentials, userPassword: "yanlis" }, suite.ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    expect(JSON.stringify(suite.logs)).not.toContain(suite.emu.credentials.userPassword);
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
      const e = await caught(createLucaKozaConnector(multi.credentials, suite.ctx()).testConnection());
      expect(e.reason).toBe("config");
      expect(e.merchantMessage).toContain("A Şirketi / Şube (2)");
      const ok = await createLucaKozaConnector(
        { ...multi.credentials, branchId: "2" },
        suite.ctx(),
      ).testConnection();
      expect(ok.description).toContain("A Şirketi / Şube");
      expect(describeFailures(judgeRequests(multi.recorder.list(), judgeLucaKozaRequest))).toBe("");
    } finally {
      await multi.close();
    }
  });

  it("reads every stock card with its category path, KDV and barcode", async () => {
    const { items, pages } = await readAllPages((t) => suite.conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(60);
    expect(pages).toBe(3);
    expect(items.map((p) => p.sku)).toEqual(suite.emu.cards.map((c) => c.kartKodu));
    for (const p of items) {
      expect([0, 1, 10, 20]).toContain(p.vatRate);
      expect(p.categoryPath).toHaveLength(2);
      expect(p.variants[0]?.barcodes[0]).toMatch(/^\d{13}$/);
    }
    expect((await suite.conn.listCategories()).items.some((c) => c.parentId)).toBe(true);
  });

  it("reads on-hand per depot, one depot a page", async () => {
    const { items, pages } = await readAllPages((t) => suite.conn.listStock({ pageToken: t }));
    expect(pages).toBe(2);
    const want = [...suite.emu.onHand.entries()].flatMap(([d, rows]) =>
      rows.map((r) => `${r.kartKodu}@${d}=${r.miktar}`),
    );
    expect(items.map((s) => `${s.sku}@${s.location}=${s.qty}`).sort()).toEqual(want.sort());
    const one = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["1452"] }));
    expect(new Set(one.items.map((s) => s.location))).toEqual(new Set(["1452"]));
  });

  it("reads each card's sales price lists", async () => {
    const groups = await suite.conn.listPriceGroups();
    expect(groups.map((g) => g.id)).toEqual(["Perakende", "Toptan"]);
    const { items } = await readAllPages((t) =>
      suite.conn.listPrices({ pageToken: t, priceGroups: ["Perakende"] }),
    );
    expect(items).toHaveLength(60);
    expect(items.every((p) => p.vatIncluded && p.amount > 0)).toBe(true);
  });

  it("opens the session again when Koza answers 'Login olunmalı'", async () => {
    suite.emu.dropSessions();
    const locs = await suite.conn.listStockLocations();
    expect(locs).toHaveLength(2);
  });

  it("says in Turkish that orders are not transferred, and sends nothing", async () => {
    await expectOrderWritesRefused(suite.conn, () => suite.emu.counters.requests, "LucaKoza");
  });
});

describe("Luca Koza faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    await expectRetriedThroughFaults(
      suite.emu,
      () => suite.conn.listStockLocations(),
      (l) => expect(l).toHaveLength(2),
    );
  });

  it("a session the server drops mid-run (code 1002 inside HTTP 200) is opened again", async () => {
    suite.emu.faults.enqueue({ kind: "auth" });
    expect(await suite.conn.listStockLocations()).toHaveLength(2);
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
    expectConformance("luca-koza", suite.conformance.report, { requests: 31 });
  });
});

describeVersionPin("API version (issue 32)", LUCA_KOZA_VERSION_PIN);
