import { describe, expect, it } from "vitest";
import { ConnectorError } from "../../sdk/errors";
import type { HttpResponse } from "../../sdk/http";
import type { RecordedRequest } from "../../testing/recorder";
import { classifyDiaResponse } from "../api";
import { judgeDiaRequest } from "./requests";
import { DIA_ANSWERS, DIA_SERVICES } from "./shapes";

const req = (path: string, body: unknown): RecordedRequest => ({
  at: 0,
  method: "POST",
  path,
  query: {},
  headers: {},
  body,
});
const list = (extra: Record<string, unknown> = {}) => ({
  session_id: "abc",
  firma_kodu: 1,
  donem_kodu: 1,
  filters: [],
  sorts: [],
  params: {},
  limit: 10,
  offset: 0,
  ...extra,
});
const res = (json: unknown): HttpResponse => ({
  status: 200,
  headers: new Headers(),
  text: JSON.stringify(json),
  json,
});

describe("DİA judge", () => {
  it("names a source for every service and answer fixture", () => {
    for (const s of Object.values(DIA_SERVICES)) expect(s.source.ref).not.toBe("");
    for (const a of DIA_ANSWERS) expect(a.source.ref).not.toBe("");
  });

  it("accepts a well-formed list call and rejects what the doc does not allow", () => {
    expect(judgeDiaRequest(req("/api/v3/scf/json", { scf_stokkart_listele: list() }))?.problems).toEqual([]);
    const bad = [
      req("/api/v3/sis/json", { scf_stokkart_listele: list() }),
      req("/api/v3/scf/json", { scf_stokkart_listele: list({ firma_kodu: "1" }) }),
      req("/api/v3/scf/json", {
        scf_stokkart_listele: list({ filters: [{ field: "_date", operator: "~", value: "x" }] }),
      }),
      req("/api/v3/scf/json", { scf_stokkart_listele: list({ sorts: [{ field: "x", sorttype: "asc" }] }) }),
      req("/api/v3/scf/json", { scf_stokkart_listele: list({ params: { selectedcolumns: ["fiyat9"] } }) }),
      req("/api/v3/scf/json", { scf_stokkart_listele: list({ limit: -1 }) }),
      req("/api/v3/scf/json", {
        scf_carikart_ekle: { ...list(), kart: { carikartkodu: "X", unvan: "Y", carikarttipi: "ZZ" } },
      }),
      req("/api/v3/scf/json", {
        scf_siparis_ekle: {
          ...list(),
          kart: { tarih: "2026-01-01", _key_scf_carikart: { carikodu: "X" }, m_kalemler: [{ miktar: 1 }] },
        },
      }),
      req("/api/v3/sis/json", {
        login: { username: "u", password: "p", disconnect_same_user: true, params: {} },
      }),
    ];
    for (const r of bad)
      expect(judgeDiaRequest(r)?.problems.length, JSON.stringify(r.body)).toBeGreaterThan(0);
    expect(judgeDiaRequest(req("/api/v3/scf/json", { scf_bilinmeyen_servis: list() }))).toBeUndefined();
  });

  it("classifies the documented in-body codes", () => {
    const reasons = DIA_ANSWERS.map((a) => [a.id, classifyDiaResponse(res(a.answer), a.service)?.reason]);
    expect(reasons).toEqual([
      ["login-ok", undefined],
      ["login-nouser", "auth"],
      ["stokkart-page", undefined],
      ["stock-page", undefined],
      ["credit-out", "config"],
      ["timeout", "auth"],
    ]);
    expect(classifyDiaResponse(res({ code: "501", msg: "x" }), "s")).toBeInstanceOf(ConnectorError);
    expect(classifyDiaResponse(res({ code: "501", msg: "x" }), "s")?.kind).toBe("transient");
  });
});
