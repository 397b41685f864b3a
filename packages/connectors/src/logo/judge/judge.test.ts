import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { LogoSqlEmulator, LogoSqlError } from "../emulator/sql";
import { classifyLogoRest, logoErrorText } from "../rest";
import { ARP_FIELDS, judgeLogoRestRequest, ORDER_FIELDS, ORDER_LINE_FIELDS, REST_SOURCES } from "./rest";
import { LOGO_TABLES, logoTableOf } from "./schema";
import { judgeLogoSql } from "./sql";

const ITEMS =
  "SELECT TOP 10 I.LOGICALREF, I.CODE FROM LG_001_ITEMS AS I WHERE I.LOGICALREF > @after ORDER BY I.LOGICALREF";

/** Statements the judge must refuse, each with the reason it names. */
const BAD_SQL: Array<[string, Record<string, unknown>, RegExp]> = [
  ["SELECT I.CODE FROM LG_001_ITEMS AS I WHERE I.CODE = 'STK-1'", {}, /literal/],
  ["SELECT I.CODE, I.PRICE FROM LG_001_ITEMS AS I", {}, /I?\.?PRICE is not in the schema|PRICE/],
  ["SELECT X.CODE FROM LG_001_ITEMZ AS X", {}, /not in the schema fixture/],
  ["UPDATE LG_001_ITEMS SET NAME = @n WHERE LOGICALREF = @r", { n: "x", r: 1 }, /only SELECT|only reads/],
  ["SELECT I.CODE FROM LG_002_ITEMS AS I", {}, /firm 2/],
  ["SELECT S.ONHAND FROM LV_001_07_STINVTOT AS S", {}, /period 7/],
  [ITEMS, {}, /@after has no value/],
  [ITEMS, { after: 0, extra: 1 }, /@extra is not used/],
  ["SELECT * FROM LG_001_ITEMS", {}, /\*/],
  ["SELECT I.CODE FROM LG_001_ITEMS AS I; DELETE FROM LG_001_ITEMS", {}, /2 statements in one text/],
  ["SELECT I.CODE FROM LG_001_ITEMS AS I WHERE", {}, /T-SQL parser/],
];

let emu: LogoSqlEmulator;
beforeAll(async () => {
  emu = await LogoSqlEmulator.start({ seed: 3, productCount: 5 });
}, 60_000); // PGlite's first start (wasm + initdb) takes seconds on a busy machine
afterAll(() => emu.close());

const req = (method: string, path: string, body: unknown, headers: Record<string, string> = {}, query = {}) =>
  ({ at: 0, method, path, query, headers, body }) as RecordedRequest;
const bearer = { authorization: "Bearer abc", "content-type": "application/json" };

describe("Logo judges", () => {
  it("names a public source for every table, column and REST field", () => {
    for (const t of LOGO_TABLES) {
      expect(t.sources.length, t.pattern).toBeGreaterThan(0);
      for (const [c, d] of Object.entries(t.columns)) expect(d.source, `${t.pattern}.${c}`).not.toBe("");
    }
    for (const f of [ARP_FIELDS, ORDER_FIELDS, ORDER_LINE_FIELDS])
      for (const [k, s] of Object.entries(f)) expect(s, k).not.toBe("");
    expect(Object.values(REST_SOURCES).every((s) => s.length > 10)).toBe(true);
    expect(logoTableOf("LV_001_02_STINVTOT")).toMatchObject({ firm: 1, period: 2 });
    expect(logoTableOf("LG_001_SOMETHING")).toBeUndefined();
  });

  it("accepts the connector's statement shapes and refuses the rest; the emulator refuses them too", async () => {
    expect(judgeLogoSql({ text: ITEMS, params: { after: 0 } }, { firm: 1 }).problems).toEqual([]);
    expect((await emu.answerSql(ITEMS, { after: 0 })).rows).toHaveLength(5);
    for (const [text, params, why] of BAD_SQL) {
      const v = judgeLogoSql({ text, params }, { firm: 1, period: 1 });
      expect(v.problems.join("; "), text).toMatch(why);
      // The emulator judges without the firm/period scope (the connector's configuration is not its own).
      const scoped = /firm 2|period 7/.test(v.problems.join(" "));
      if (!scoped) await expect(emu.answerSql(text, params), text).rejects.toBeInstanceOf(LogoSqlError);
    }
    await expect(emu.answerSql("SELECT X.CODE FROM LG_001_ITEMZ AS X")).rejects.toMatchObject({
      number: 208,
    });
    await expect(emu.answerSql("SELECT I.NOPE FROM LG_001_ITEMS AS I")).rejects.toMatchObject({
      number: 207,
    });
  });

  it("checks the REST request shapes of the token, the lists and the writes", () => {
    const basic = `Basic ${Buffer.from("id:secret").toString("base64")}`;
    const form = { authorization: basic, "content-type": "application/x-www-form-urlencoded" };
    const grant = { grant_type: "password", username: "LOGO", password: "p", firmno: "1" };
    expect(judgeLogoRestRequest(req("POST", "/api/v1/token", grant, form))?.problems).toEqual([]);
    const order = {
      NUMBER: "~",
      DATE: "2026-11-16T00:00:00",
      ARP_CODE: "120.W.1",
      DOC_TRACK_NR: "IK-1",
      TRANSACTIONS: { items: [{ TYPE: 0, MASTER_CODE: "STK-1", QUANTITY: 1, PRICE: 10, VAT_RATE: 20 }] },
    };
    expect(judgeLogoRestRequest(req("POST", "/api/v1/salesOrders", order, bearer))?.problems).toEqual([]);
    const list = { offset: "0", limit: "1", q: "(DOC_TRACK_NR like 'IK-1')", withCount: "true" };
    expect(
      judgeLogoRestRequest(req("GET", "/api/v1/salesOrders", undefined, bearer, list))?.problems,
    ).toEqual([]);
    const bad: RecordedRequest[] = [
      req("POST", "/api/v1/token", { ...grant, grant_type: "client_credentials" }, form),
      req("POST", "/api/v1/token", grant, { "content-type": "application/json" }),
      req("POST", "/api/v1/token", { ...grant, firmno: "" }, form),
      req("POST", "/api/v1/salesOrders", { ...order, TRANSACTIONS: { items: [] } }, bearer),
      req("POST", "/api/v1/salesOrders", { ...order, ORDER_TOTAL: 5 }, bearer),
      req("POST", "/api/v1/salesOrders", order, { "content-type": "application/json" }),
      req("POST", "/api/v1/arps", { CODE: "X", TITLE: "Y", ACCOUNT_TYPE: 7 }, bearer),
      req("POST", "/api/v1/arps", { CODE: "X", TITLE: "Y", ACCOUNT_TYPE: 1, EMAIL: "a@b" }, bearer),
      req("GET", "/api/v1/salesOrders", undefined, bearer, { q: "DOC_TRACK_NR = 'IK-1'" }),
      req("GET", "/api/v1/salesOrders", undefined, bearer, { page: "2" }),
    ];
    for (const r of bad)
      expect(judgeLogoRestRequest(r)?.problems.length, JSON.stringify(r)).toBeGreaterThan(0);
    expect(judgeLogoRestRequest(req("GET", "/api/v1/unknownThings", undefined, bearer))).toBeUndefined();
  });

  it("reads the service's error envelope: ModelState lists, OWIN grant errors", () => {
    const body = {
      Message: "The request is invalid.",
      ModelState: { LOError: ["Cari bulunamadı"], DBError: ["x"] },
    };
    expect(logoErrorText(body)).toBe("Cari bulunamadı; x");
    const res = (status: number, json: unknown) => ({
      status,
      headers: new Headers(),
      text: JSON.stringify(json),
      json,
    });
    expect(classifyLogoRest(res(400, body), "op", "logo")?.reason).toBe("validation");
    expect(classifyLogoRest(res(400, { error: "invalid_grant" }), "token", "logo")?.reason).toBe("auth");
    expect(classifyLogoRest(res(503, {}), "op", "logo")?.kind).toBe("transient");
    expect(classifyLogoRest(res(200, {}), "op", "logo")).toBeUndefined();
  });
});
