import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConnectorError } from "../../sdk/errors";
import type { HttpResponse } from "../../sdk/http";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules, rulesMissingFrom, unsourcedRules } from "../../testing/runtime-rules";
import { classifyNebimResponse } from "../api";
import { deriveJudge, MODELS_JSON, parseSamples, readMirror } from "./derive";
import { judgeNebimRequest, NEBIM_MODELS } from "./requests";
import { NEBIM_RULES } from "./rules";
import { NEBIM_DOCS, NEBIM_DOCS_MIRROR } from "./source";

const req = (path: string, body: unknown, headers: Record<string, string> = {}): RecordedRequest => ({
  at: 0,
  method: "POST",
  path,
  query: {},
  headers,
  body,
});
const S = "/(S(uzr4v2hsttmweooenvsqq5je))/IntegratorService";
const res = (status: number, json: unknown): HttpResponse => ({
  status,
  headers: new Headers(),
  text: JSON.stringify(json),
  json,
});

/** The retail order sample of the repository ("Peşin Satış Sipariş R.txt"), as published. */
const RETAIL_ORDER = {
  ModelType: 6,
  CustomerCode: "1-4-13",
  PosTerminalID: 1,
  OrderDate: "20190311",
  OfficeCode: "M01",
  StoreCode: "M01",
  StoreWareHouseCode: "M01",
  IsSalesViaInternet: true,
  IsCompleted: true,
  ShipmentMethodCode: 2,
  DeliveryCompanyCode: "ARAS",
  Lines: [{ UsedBarcode: "8695450000643", PriceVI: 30.0, Qty1: 1, LineDescription: "" }],
};

describe("Nebim judge", () => {
  it("is derived from a named commit of the docs repository", () => {
    expect(NEBIM_MODELS.source).toMatchObject({
      repository: "cemyeten/nebim-v3-integrator-docs",
      commit: NEBIM_DOCS.commit,
    });
    expect(NEBIM_MODELS.samples.files).toBe(58);
    for (const mt of ["2", "3", "5", "6"]) expect(NEBIM_MODELS.models[mt]?.samples.length).toBeGreaterThan(0);
    expect(NEBIM_MODELS.models["6"]?.schema.required).toEqual(
      expect.arrayContaining(["CustomerCode", "OfficeCode", "StoreCode", "StoreWareHouseCode"]),
    );
  });

  it.skipIf(!existsSync(NEBIM_DOCS_MIRROR))(
    "re-derives models.json from the fetched samples unchanged",
    () => {
      const { samples, list } = readMirror(NEBIM_DOCS_MIRROR);
      const again = deriveJudge(samples, list);
      expect(again).toEqual(JSON.parse(readFileSync(MODELS_JSON, "utf8")));
    },
  );

  it("reads the hand-written samples: comments, unquoted keys, trailing commas, two models in a file", () => {
    expect(
      parseSamples(
        '//önce fatura\n{\n  ModelType: 8, // not 6\n  "A": "x//y",\n  "L": [1,],\n}\n\n{ "ModelType": 82 }',
      ),
    ).toEqual([{ ModelType: 8, A: "x//y", L: [1] }, { ModelType: 82 }]);
  });

  it("accepts the published retail order and rejects what the samples and the PDF do not allow", () => {
    expect(judgeNebimRequest(req(`${S}/Post`, RETAIL_ORDER))?.problems).toEqual([]);
    const bad: RecordedRequest[] = [
      // a key no sample of ModelType 6 has
      req(`${S}/Post`, { ...RETAIL_ORDER, ShippingCost: 10 }),
      // mandatory store warehouse missing (PDF)
      req(`${S}/Post`, { ...RETAIL_ORDER, StoreWareHouseCode: undefined }),
      // DocumentNumber longer than 30 (PDF)
      req(`${S}/Post`, { ...RETAIL_ORDER, DocumentNumber: "X".repeat(31) }),
      // UsedBarcode together with ItemCode (PDF rule)
      req(`${S}/Post`, { ...RETAIL_ORDER, Lines: [{ UsedBarcode: "1", ItemCode: "K001", Qty1: 1 }] }),
      // a line without Qty1
      req(`${S}/Post`, { ...RETAIL_ORDER, Lines: [{ UsedBarcode: "1" }] }),
      // CommunicationTypeCode as a number on a retail customer: the samples send strings
      req(`${S}/Post`, {
        ModelType: 3,
        CurrAccCode: "",
        Communications: [{ CommunicationTypeCode: 7, CommAddress: "05555555555" }],
      }),
      // no session in the URL and no Token header
      req("/IntegratorService/Post", RETAIL_ORDER),
      // RunProc values are strings (docs/03-call-proc.md)
      req(`${S}/RunProc`, {
        ProcName: "sp_GetRetailCustomer",
        Parameters: [{ Name: "CommAddress", Value: 5 }],
      }),
      req(`${S}/RunProc`, { Parameters: [] }),
      // Connect with a key the PDF table does not have, and with a too long user group
      req(`${S}/Connect`, {
        DatabaseName: "TESTV3",
        UserGroupCode: "V3",
        UserName: "INT",
        Password: "1",
        Lang: "TR",
      }),
      req("/IntegratorService/Connect", {
        DatabaseName: "TESTV3",
        UserGroupCode: "TOOLONG",
        UserName: "INT",
        Password: "1",
      }),
    ];
    for (const r of bad)
      expect(judgeNebimRequest(r)?.problems.length, JSON.stringify(r.body)).toBeGreaterThan(0);
    // Token mode is fine without the session URL.
    expect(
      judgeNebimRequest(req("/IntegratorService/Post", RETAIL_ORDER, { token: "0AA5" }))?.problems,
    ).toEqual([]);
    // A ModelType no sample shows is unknown to the judge.
    expect(judgeNebimRequest(req(`${S}/Post`, { ModelType: 46 }))).toBeUndefined();
  });

  it("classifies the documented error shape", () => {
    const lost = classifyNebimResponse(
      res(500, { ModelType: 0, ExceptionMessage: "Boş akışın serisini kaldırma girişimi.", StackTrace: "x" }),
      "Post",
    );
    expect(lost?.reason).toBe("auth");
    const large = classifyNebimResponse(
      res(500, { ModelType: 0, ExceptionMessage: "The JSON request was too large to be deserialized." }),
      "Post",
    );
    expect(large?.reason).toBe("config");
    expect(large?.merchantMessage).toContain("MaxJsonDeserializerMembers");
    const refused = classifyNebimResponse(
      res(500, { ModelType: 0, ExceptionMessage: "Cari hesap bulunamadı: X" }),
      "Post",
    );
    expect(refused).toBeInstanceOf(ConnectorError);
    expect(refused?.kind).toBe("permanent");
    expect(
      classifyNebimResponse(
        res(200, {
          ModelType: 0,
          Status: "Connection Created Successfully",
          StatusCode: 200,
          SessionID: "a",
        }),
        "Connect",
      ),
    ).toBeUndefined();
    expect(classifyNebimResponse(res(200, [{ ItemCode: "K001" }]), "RunProc")).toBeUndefined();
  });
});

describe("Nebim runtime rules", () => {
  const connect = (path: string, body?: unknown): RecordedRequest => ({
    at: 0,
    method: body ? "POST" : "GET",
    path,
    query: {},
    headers: {},
    body,
  });
  const login = { DatabaseName: "V3", UserGroupCode: "V3", UserName: "INT", Password: "1" };
  const broken = (r: RecordedRequest, side?: string) =>
    applyRuntimeRules(NEBIM_RULES, r, [], { side }).map((v) => v.rule);

  it("refuses credentials on a bare Connect URL where IIS redirects, and nowhere else", () => {
    const redirect = "cookieless-redirect";
    expect(broken(connect("/IntegratorService/Connect", login), redirect)).toEqual([
      "nebim.session-credentials-url",
    ]);
    expect(broken(connect("/(S(abc123))/IntegratorService/Connect", login), redirect)).toEqual([]);
    expect(broken(connect("/IntegratorService/Connect"), redirect)).toEqual([]);
    // The other side of the disagreement, and token mode (no side), accept the bare URL.
    expect(broken(connect("/IntegratorService/Connect", login), "direct")).toEqual([]);
    expect(broken(connect("/IntegratorService/Connect", login))).toEqual([]);
    expect(unsourcedRules(NEBIM_RULES)).toEqual([]);
    expect(
      rulesMissingFrom(readFileSync(new URL("../VERIFIED.md", import.meta.url), "utf8"), NEBIM_RULES),
    ).toEqual([]);
  });
});
