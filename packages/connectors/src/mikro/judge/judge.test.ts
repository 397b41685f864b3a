import { readFileSync } from "node:fs";
/**
 * The Mikro connector read against live answer shapes (./live-shapes.ts), not against our emulator: a
 * replay server built on the emulator kit answers each method with a fixture, and every request the
 * connector sends to it is judged by ./requests.ts as well.
 */

import { afterEach, describe, expect, it } from "vitest";
import type { ErpConnector } from "../../sdk/connector";
import { ConnectorError } from "../../sdk/errors";
import type { Order } from "../../sdk/model";
import { InMemoryRateLimitStore } from "../../sdk/rate-limit";
import { describeFailures, judgeRequests, type RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules, rulesMissingFrom, unsourcedRules } from "../../testing/runtime-rules";
import { createEmulatorServer, type EmulatorServer } from "../../testing/server";
import { mikroRows, parseVatTable, vatPointerOf } from "../api";
import { createMikroConnector } from "../connector";
import { LIVE_ANSWERS, liveAnswer } from "./live-shapes";
import { judgeMikroRequest } from "./requests";
import { MIKRO_RULES } from "./rules";

type Rows = Array<Record<string, unknown>>;

/** Table rows the replayed SqlVeriOkuV2 answers carry (our values; the wrapper comes from a fixture). */
const TABLES: Record<string, Rows> = {
  FIRMALAR: [{ fir_unvan: "Deneme Yapı Malzemeleri Ltd. Şti." }],
  STOK_ANA_GRUPLARI: [{ san_kod: "AG01", san_isim: "Giyim" }],
  STOK_ALT_GRUPLARI: [{ sta_kod: "AG01.001", sta_isim: "Tişört", sta_ana_grup_kod: "AG01" }],
  STOK_MARKALARI: [{ mrk_kod: "M001", mrk_ismi: "Anadolu" }],
  BARKOD_TANIMLARI: [{ bar_stokkodu: "STK-000001", bar_kodu: "8690000000019" }],
};

interface Replay {
  server: EmulatorServer;
  url: string;
  orders: Rows;
}

/** Answers every method from a fixture; SqlVeriOkuV2 in the fixture's wrapper form with `TABLES` rows. */
async function replay(use: Record<string, string>): Promise<Replay> {
  const server = createEmulatorServer({
    caseInsensitiveRoutes: true,
    answers: {
      serverError: { body: { Message: "An error has occurred." } },
      tooManyRequests: () => ({ Message: "Too many requests." }),
      lock: { body: {} },
    },
  });
  const orders: Rows = [];
  server.app.post("/Api/APIMethods/:method", async (req) => {
    const method = (req.params as { method: string }).method;
    const body = req.body as { SQLSorgu?: string; Mikro?: { evraklar?: Array<{ satirlar: Rows }> } };
    const id = use[method];
    if (!id) throw new Error(`replay has no fixture for ${method}`);
    const answer = liveAnswer(id) as { result?: Array<{ Data: unknown; IsError?: boolean }> };
    if (method === "SiparisKaydetV2") {
      // The write lands in the replayed SIPARISLER so a lookup by our reference finds it.
      for (const d of body.Mikro?.evraklar ?? []) {
        d.satirlar.forEach((l, i) => {
          orders.push({ ...l, sip_evrakno_sira: 123, sip_satirno: i, sip_Guid: `G-${orders.length + 1}` });
        });
      }
    }
    if (method === "SqlVeriOkuV2" && answer.result?.[0] && !answer.result[0].IsError) {
      const table = /\bFROM\s+(\w+)/i.exec(body.SQLSorgu ?? "")?.[1]?.toUpperCase() ?? "";
      let rows = table === "SIPARISLER" ? orders : (TABLES[table] ?? []);
      const ref = /sip_belgeno = '([^']*)'/.exec(body.SQLSorgu ?? "")?.[1];
      if (ref !== undefined) rows = rows.filter((r) => r.sip_belgeno === ref);
      const data = answer.result[0].Data;
      answer.result[0].Data = Array.isArray(data) ? [{ SQLResult1: rows }] : { SQLResult1: rows };
    }
    return answer;
  });
  const { url } = await server.listen();
  return { server, url, orders };
}

let open: Replay | undefined;
afterEach(async () => {
  if (open) {
    // Whatever a test did, every request it sent must match the live request shapes.
    const report = judgeRequests(open.server.recorder.list(), judgeMikroRequest);
    await open.server.close();
    open = undefined;
    expect(report.failures, describeFailures(report)).toEqual([]);
  }
});

async function connectorFor(use: Record<string, string>): Promise<ErpConnector> {
  open = await replay(use);
  return createMikroConnector(
    {
      apiUrl: open.url,
      apiKey: "k",
      firmCode: "01",
      period: "2026",
      userCode: "SRV",
      password: "p",
    },
    {
      companyId: "c1",
      rateLimitStore: new InMemoryRateLimitStore(),
      timeoutMs: 2000,
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
    },
  );
}

const LOOKUPS = {
  VergiListesiV2: "vergi-listesi",
  StokListesiV2: "stok-listesi",
  SqlVeriOkuV2: "sql-array-wrapper",
};

function order(): Order {
  const address = {
    firstName: "Ali",
    lastName: "Veli",
    line1: "Atatürk Cad. 1",
    city: "Ankara",
    country: "Türkiye",
  };
  return {
    id: "shop-77",
    orderNo: "77",
    createdAt: "2026-11-20T09:00:00.000Z",
    updatedAt: "2026-11-20T09:00:00.000Z",
    status: "UNFULFILLED",
    currency: "TRY",
    customer: { ref: "C-1", firstName: "Ali", lastName: "Veli", isCompany: false, billingAddress: address },
    billingAddress: address,
    shippingAddress: address,
    lines: [
      { sku: "STK-000001", name: "Tişört", qty: 1, unitPrice: 120, vatRate: 20, discount: 0, total: 120 },
      { sku: "STK-000002", name: "Fincan", qty: 2, unitPrice: 55, vatRate: 10, discount: 0, total: 110 },
    ],
    shipping: { cost: 0, method: "Kargo" },
    totals: { subtotal: 230, discount: 0, shipping: 0, tax: 30, grandTotal: 230 },
  };
}

describe("Mikro connector against live answer shapes", () => {
  it("every fixture names its source: repository, path, commit and a dated finding", () => {
    for (const f of LIVE_ANSWERS) {
      expect(f.source.repository).toBe("orcncetin-sys/cetpa");
      expect(f.source.path).toMatch(/^src\/server\//);
      expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(f.source.finding.length).toBeGreaterThan(40);
    }
  });

  it.each(["sql-array-wrapper", "sql-object-wrapper"])(
    "reads SqlVeriOkuV2 rows in the %s form",
    async (id) => {
      const conn = await connectorFor({ ...LOOKUPS, SqlVeriOkuV2: id });
      const info = await conn.testConnection();
      expect(info.details?.firmName).toBe("Deneme Yapı Malzemeleri Ltd. Şti.");
    },
  );

  it("reads StokListesiV2 rows from Data.StokListesi", async () => {
    const conn = await connectorFor(LOOKUPS);
    const page = await conn.listProducts({ pageSize: 100 });
    expect(page.items.map((p) => p.sku)).toEqual(["STK-000001", "STK-000002", "STK-000003"]);
    expect(page.items[0]?.variants[0]?.barcodes).toEqual(["8690000000019"]);
    expect(page.items[0]?.categoryPath).toEqual(["Giyim", "Tişört"]);
    expect(page.nextPageToken).toBeUndefined();
  });

  it("maps the VAT field as an index into VergiListesiV2, float rates rounded, junk rows dropped", async () => {
    const conn = await connectorFor(LOOKUPS);
    const page = await conn.listProducts({ pageSize: 100 });
    // pointers 4, 3, 2 → 20 %, 10 %, 1 %
    expect(page.items.map((p) => p.vatRate)).toEqual([20, 10, 1]);
  });

  it("reads VergiListesiV2 as a plain row list too, and rejects a card whose pointer is not in it", async () => {
    const conn = await connectorFor({ ...LOOKUPS, VergiListesiV2: "vergi-listesi-plain" });
    const page = await conn.listProducts({ pageSize: 100 });
    // STK-000003 points at 2, which this list lacks; 3 and 4 resolve (a wrong guess would pass silently).
    // The card is that record's failure; the rest of the page is read.
    expect(page.items.map((p) => p.sku)).not.toContain("STK-000003");
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.rejected?.map((r) => r.key)).toEqual(["STK-000003"]);
    const e = page.rejected?.[0]?.error;
    expect(e).toBeInstanceOf(ConnectorError);
    expect(e?.kind).toBe("permanent");
    expect(e?.merchantMessage).toContain("vergi tablosunda olmayan bir KDV işaretçisi (2)");
  });

  it.each(["siparis-kaydet-evrakNo", "siparis-kaydet-id"])(
    "writes an order with VAT pointers and finds it by our reference, whatever the answer key (%s)",
    async (id) => {
      const conn = await connectorFor({ ...LOOKUPS, SiparisKaydetV2: id });
      const created = await conn.createSalesOrder({ order: order(), customerCode: "120.W.C1" });
      expect(created).toMatchObject({ documentId: "WEB-123", ref: "77", existed: false });
      expect(created.lineIds).toEqual(["G-1", "G-2"]);
      expect(open?.orders.map((l) => l.sip_vergi_pntr)).toEqual([4, 3]);
    },
  );

  it("an error inside HTTP 200 is a failure with the system's words", async () => {
    const conn = await connectorFor({ ...LOOKUPS, SqlVeriOkuV2: "error-inside-200" });
    const e = await conn.testConnection().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectorError);
    expect((e as ConnectorError).systemMessage).toBe("Invalid column name 'sto_mevcut_mik'.");
  });

  it("a 200 without `result` is a failure, never an empty list", async () => {
    const conn = await connectorFor({ ...LOOKUPS, StokListesiV2: "stub-without-result" });
    const e = await conn.listProducts({ pageSize: 100 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectorError);
    expect((e as ConnectorError).reason).toBe("bad_response");
  });
});

describe("Mikro answer parsers", () => {
  it("read every wrapper form, and tell an empty answer from a missing one", () => {
    const row = { fir_unvan: "X" };
    expect(mikroRows([{ SQLResult1: [row] }], "SQLResult1")).toEqual([row]);
    expect(mikroRows({ SQLResult1: [row] }, "SQLResult1")).toEqual([row]);
    expect(mikroRows([{ SQLResult1: [] }], "SQLResult1")).toEqual([]);
    expect(mikroRows([row])).toEqual([row]);
    expect(mikroRows({ StokListesi: [row] }, "StokListesi")).toEqual([row]);
    // no row list at all: undefined, which the connector turns into a bad_response failure
    expect(mikroRows(null, "SQLResult1")).toBeUndefined();
    expect(mikroRows({ Method: "x" }, "SQLResult1")).toBeUndefined();
  });

  it("map VAT rates to the lowest matching pointer and refuse rates the table lacks", () => {
    const answer = liveAnswer("vergi-listesi") as { result: Array<{ Data: unknown }> };
    const table = parseVatTable(mikroRows(answer.result[0]?.Data) ?? []);
    expect([...table.entries()]).toEqual([
      [1, 0],
      [2, 1],
      [3, 10],
      [4, 20],
    ]);
    expect(vatPointerOf(table, 20)).toBe(4);
    expect(
      vatPointerOf(
        new Map([
          [7, 20],
          [4, 20],
        ]),
        20,
      ),
    ).toBe(4);
    expect(vatPointerOf(table, 8)).toBeUndefined();
  });
});

describe("Mikro runtime rules", () => {
  const call = { at: 0, method: "POST", path: "/Api/APIMethods/SqlVeriOkuV2", query: {}, headers: {} };
  const sql = (SQLSorgu: string): RecordedRequest => ({
    ...call,
    body: { Mikro: {}, SQLSorgu },
  });
  const broken = (q: string) => applyRuntimeRules(MIKRO_RULES, sql(q)).flatMap((v) => v.problems);

  it("refuses a stock summary read without both return columns or counting kinds 9 and 15", () => {
    const all = "sho_StokKodu, sho_Depo, sho_GirisNormal, sho_GirisIade, sho_CikisNormal, sho_CikisIade";
    expect(broken(`SELECT ${all} FROM STOK_HAREKETLERI_OZET WHERE sho_HareketCins NOT IN (9, 15)`)).toEqual(
      [],
    );
    expect(broken(`SELECT ${all} FROM STOK_HAREKETLERI_OZET`)).toEqual([
      "the stock read counts the value-difference kinds 9 and 15",
    ]);
    expect(
      broken(
        "SELECT sho_StokKodu, sho_GirisNormal, sho_CikisNormal FROM STOK_HAREKETLERI_OZET WHERE sho_HareketCins NOT IN (9, 15)",
      ),
    ).toEqual(["the stock read leaves out sho_GirisIade", "the stock read leaves out sho_CikisIade"]);
    // Reads that are no quantity read (range boundaries) are not its business.
    expect(broken("SELECT sho_StokKodu FROM STOK_HAREKETLERI_OZET")).toEqual([]);
    expect(unsourcedRules(MIKRO_RULES)).toEqual([]);
    expect(
      rulesMissingFrom(readFileSync(new URL("../VERIFIED.md", import.meta.url), "utf8"), MIKRO_RULES),
    ).toEqual([]);
  });
});
