import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HttpResponse } from "../../sdk/http";
import type { RecordedRequest } from "../../testing/recorder";
import {
  applyRuntimeRules,
  rulesMissingFrom,
  unsourcedRules,
  violationMessages,
} from "../../testing/runtime-rules";
import { classifyNetsisResponse } from "../api";
import { NETSIS_ANSWERS } from "./answers";
import { MODELS, NETOPENX } from "./models";
import { judgeNetsisRequest } from "./requests";
import { NETSIS_RULES } from "./rules";

const bearer = { authorization: "Bearer abc" };
const req = (
  method: string,
  path: string,
  body?: unknown,
  query: Record<string, unknown> = {},
  headers: Record<string, string> = bearer,
): RecordedRequest => ({
  at: 0,
  method,
  path,
  query,
  headers,
  body,
});
const slip = (over: Record<string, unknown> = {}, head: Record<string, unknown> = {}) => ({
  FaturaTip: 7,
  Seri: "W",
  FatUst: { CariKod: "120.W.1", Tip: 7, Tarih: "2026-11-15T11:30:00", EKACK1: "IKAS-1", ...head },
  Kalems: [{ StokKodu: "STK-000001", STra_GCMIK: 2, STra_BF: 120, STra_KDV: 20, DEPO_KODU: 1 }],
  ...over,
});
const res = (status: number, json: unknown): HttpResponse => ({
  status,
  headers: new Headers(),
  text: JSON.stringify(json),
  json,
});

describe("Netsis judge (derived from NetOpenX.Rest.Client.dll)", () => {
  it("carries the DLL's models, each naming its DLL type and the commit", () => {
    expect(NETOPENX.source.commit).toMatch(/^7786984/);
    for (const m of Object.values(MODELS)) expect(m.dllType).toMatch(/^NetOpenX\.Rest\.Client\./);
    expect(MODELS.ItemSlipsHeader?.properties.EKACK1).toBe("string");
    expect(MODELS.ItemSlipLines?.properties.STra_GCMIK).toBe("number");
    expect(NETOPENX.enums.JTFaturaTip.ftSSip).toBe(7);
    for (const a of NETSIS_ANSWERS) expect(a.source).not.toBe("");
  });

  it("accepts well-formed calls and rejects what the DLL's models and routes do not allow", () => {
    const good = [
      req("POST", "/api/v2/ItemSlips/", slip()),
      req("POST", "/api/v2/Queries/", { TSql: "SELECT DEPO_KODU, DEPO_ISMI FROM TBLSTOKDP" }),
      req("GET", "/api/v2/Items/", undefined, { limit: "50", offset: "0", sort: "Stok_Kodu ASC" }),
      req("GET", "/api/v2/Items", undefined, { limit: "50", offset: "50" }),
      req("GET", "/api/v2/ItemSlips/MainInfo/", undefined, {
        limit: "1",
        offset: "0",
        q: "Tip = 7 AND EKACK1 = 'A ''B'''",
      }),
      req("POST", "/api/v2/ARPs/", {
        CariTemelBilgi: { CARI_KOD: "120.W.1", CARI_ISIM: "Ayşe" },
        CariEkBilgi: { TcKimlikNo: "1" },
      }),
      req("GET", "/api/v2/ItemSlips/ftSFat%3BE2026%3B120.W.1/"),
      req(
        "POST",
        "/api/v2/token",
        {
          grant_type: "password",
          branchcode: "0",
          username: "u",
          password: "p",
          dbname: "D",
          dbuser: "TEMELSET",
          dbpassword: "",
          dbtype: "0",
        },
        {},
        {},
      ),
    ];
    for (const r of good) expect(judgeNetsisRequest(r)?.problems, `${r.method} ${r.path}`).toEqual([]);
    const bad = [
      req("POST", "/api/v2/ItemSlips/", slip({ Siparis: true })),
      req("POST", "/api/v2/ItemSlips/", slip({}, { SiparisNo: "IKAS-1" })),
      req("POST", "/api/v2/ItemSlips/", slip({ FaturaTip: "ftSSip" })),
      req("POST", "/api/v2/ItemSlips/", slip({ FaturaTip: 42 }, { Tip: 42 })),
      req("POST", "/api/v2/ItemSlips/", slip({ Kalems: [{ StokKodu: "X", STra_GCMIK: 0 }] })),
      req("POST", "/api/v2/ItemSlips/", slip({ Kalems: [{ StokKodu: "X", STra_GCMIK: 1, Miktar: 1 }] })),
      req("POST", "/api/v2/ItemSlips/", slip({ Seri: undefined })),
      req("POST", "/api/v2/ItemSlips/", slip({}, { Tarih: "15.11.2026" })),
      req("POST", "/api/v2/ItemSlips/", slip(), {}, {}),
      req("POST", "/api/v2/ARPs/", { CariTemelBilgi: { CARI_ISIM: "Ayşe" } }),
      req("POST", "/api/v2/ARPs/", { CariTemelBilgi: { CARI_KOD: "120.W.12345678901" } }),
      req("POST", "/api/v2/Queries/", { TSql: "DELETE FROM TBLSTOKPH" }),
      req("POST", "/api/v2/Queries/", { TSql: "SELECT * FROM TBLCASABIT" }),
      req("GET", "/api/v2/Items/", undefined, { limit: "50", page: "2" }),
      req("GET", "/api/v2/Items/", undefined, { q: "StokKodu = 'X'" }),
      req("GET", "/api/v2/Items/", undefined, { sort: "Stok_Kodu UP" }),
      req("GET", "/api/v2/ItemSlips/7%3BE1%3BC/"),
      req("GET", "/api/v2/Orders/"),
      req(
        "POST",
        "/api/v2/token",
        { grant_type: "password", username: "u", password: "p", dbname: "D", dbuser: "T", branchcode: "x" },
        {},
        {},
      ),
      req(
        "POST",
        "/api/v2/token",
        {
          grant_type: "password",
          username: "u",
          password: "p",
          dbname: "D",
          dbuser: "T",
          branchcode: "0",
          sirket: "D",
        },
        {},
        {},
      ),
    ];
    for (const r of bad)
      expect(
        judgeNetsisRequest(r)?.problems.length,
        `${r.method} ${r.path} ${JSON.stringify(r.body ?? r.query)}`,
      ).toBeGreaterThan(0);
  });

  it("classifies the envelope: IsSuccessful false is a failure even in HTTP 200; a lock is transient", () => {
    const byId = Object.fromEntries(
      NETSIS_ANSWERS.map((a) => [a.id, classifyNetsisResponse(res(a.status, a.answer), a.operation)]),
    );
    expect(byId["token-ok"]).toBeUndefined();
    expect([byId["token-refused"]?.reason, byId["token-refused"]?.kind]).toEqual(["auth", "permanent"]);
    expect(byId["items-page"]).toBeUndefined();
    expect([byId["slip-refused"]?.reason, byId["slip-refused"]?.kind]).toEqual(["validation", "permanent"]);
    expect([byId["record-locked"]?.reason, byId["record-locked"]?.kind]).toEqual(["lock", "transient"]);
  });
});

describe("Netsis runtime rules", () => {
  const stockQuery = (where: string) =>
    req("POST", "/api/v2/Queries/", {
      TSql: `SELECT STOK_KODU, DEPO_KODU, TOP_GIRIS_MIK, TOP_CIKIS_MIK FROM TBLSTOKPH${where} ORDER BY STOK_KODU`,
    });
  const broken = (r: RecordedRequest) =>
    violationMessages(applyRuntimeRules(NETSIS_RULES, r)).map((m) => m.slice(0, m.indexOf("]") + 1));

  it("refuses a per-depot stock read that lets the DEPO_KODU 0 total row through", () => {
    for (const where of [
      "",
      " WHERE DEPO_KODU IN (0, 1)",
      " WHERE DEPO_KODU >= 0",
      " WHERE DEPO_KODU <> 0 OR 1 = 1",
    ])
      expect(broken(stockQuery(where)), where).toEqual(["[netsis.stock-total-row]"]);
    for (const where of [
      " WHERE DEPO_KODU <> 0",
      " WHERE DEPO_KODU <> 0 AND DEPO_KODU IN (1, 2)",
      " WHERE DEPO_KODU = 2",
    ])
      expect(broken(stockQuery(where)), where).toEqual([]);
    // Other tables and other routes are not its business.
    expect(
      broken(req("POST", "/api/v2/Queries/", { TSql: "SELECT DEPO_KODU, DEPO_ISMI FROM TBLSTOKDP" })),
    ).toEqual([]);
  });

  it("every rule names a source and VERIFIED.md lists it", () => {
    expect(unsourcedRules(NETSIS_RULES)).toEqual([]);
    expect(
      rulesMissingFrom(readFileSync(new URL("../VERIFIED.md", import.meta.url), "utf8"), NETSIS_RULES),
    ).toEqual([]);
  });
});
