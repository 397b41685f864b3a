/**
 * The judge for DİA, part 2: every request the connector sends in its contract tests is checked against
 * the doc's envelope rules and the service table of ./shapes.ts. An unknown service, a wrong module, a
 * bad filter or a column the service does not have fails the suite.
 */

import type { RecordedRequest, Verdict } from "../../testing/recorder";
import { DIA_OPERATORS, DIA_SERVICES } from "./shapes";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);
const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";

function listProblems(b: Obj, columns: string[] | undefined): string[] {
  const p: string[] = [];
  if (!Array.isArray(b.filters)) p.push("filters must be an array");
  else
    for (const f of b.filters) {
      if (!isObj(f) || !nonEmpty(f.field)) p.push("filter.field must be a non-empty string");
      else if (!(DIA_OPERATORS as readonly string[]).includes(String(f.operator)))
        p.push(`filter.operator ${String(f.operator)} is not one of ${DIA_OPERATORS.join(" ")}`);
      else if (typeof f.value !== "string") p.push("filter.value must be a string (IN lists comma-joined)");
    }
  if (!Array.isArray(b.sorts)) p.push("sorts must be an array");
  else
    for (const s of b.sorts) {
      if (!isObj(s) || !nonEmpty(s.field) || (s.sorttype !== "ASC" && s.sorttype !== "DESC"))
        p.push("sort must be {field, sorttype ASC|DESC}");
    }
  if (!isObj(b.params)) p.push("params must be an object");
  if (!isInt(b.limit) || (b.limit as number) < 0) p.push("limit must be an integer ≥ 0 (0 = all)");
  if (!isInt(b.offset) || (b.offset as number) < 0) p.push("offset must be an integer ≥ 0");
  const sel = isObj(b.params) ? b.params.selectedcolumns : undefined;
  if (sel !== undefined) {
    if (!Array.isArray(sel) || sel.some((c) => typeof c !== "string"))
      p.push("selectedcolumns must list strings");
    else if (columns) {
      const unknown = sel.filter((c) => !columns.includes(c as string));
      if (unknown.length) p.push(`selectedcolumns names columns the service lacks: ${unknown.join(", ")}`);
    }
  }
  if (
    isObj(b.params) &&
    "miktarhesapla" in b.params &&
    !["True", "False", "1", "0"].includes(String(b.params.miktarhesapla))
  )
    p.push("params.miktarhesapla must be 'True'/'False' (or '1'/'0')");
  return p;
}

export function judgeDiaRequest(r: RecordedRequest): Verdict | undefined {
  if (r.method !== "POST" || !isObj(r.body)) return undefined;
  const keys = Object.keys(r.body);
  if (keys.length !== 1)
    return { operation: "envelope", problems: ["body must hold exactly one service key"] };
  const service = keys[0] as string;
  const shape = DIA_SERVICES[service];
  if (!shape) return undefined;
  const problems: string[] = [];
  if (!r.path.endsWith(`/api/v3/${shape.module}/json`))
    problems.push(`${service} belongs on /api/v3/${shape.module}/json, not ${r.path}`);
  const b = r.body[service];
  if (!isObj(b)) return { operation: service, problems: [...problems, "service value must be an object"] };

  if (shape.kind === "login") {
    if (!nonEmpty(b.username)) problems.push("login.username missing");
    if (!nonEmpty(b.password)) problems.push("login.password missing");
    if (b.disconnect_same_user !== "True" && b.disconnect_same_user !== "False")
      problems.push("login.disconnect_same_user must be 'True' or 'False'");
    if (!isObj(b.params) || !nonEmpty(b.params.apikey)) problems.push("login.params.apikey missing");
    return { operation: service, problems };
  }
  if (!nonEmpty(b.session_id)) problems.push("session_id missing");
  if (shape.scoped) {
    if (!isInt(b.firma_kodu)) problems.push("firma_kodu must be an integer");
    if (!isInt(b.donem_kodu)) problems.push("donem_kodu must be an integer");
  }
  if (shape.kind === "list") problems.push(...listProblems(b, shape.columns));
  if (shape.kind === "getir" && !(isInt(b.key) || nonEmpty(b.key))) problems.push("_getir needs key");
  if (shape.kind === "ekle") {
    if (!isObj(b.kart)) problems.push("_ekle needs kart");
    else {
      for (const f of shape.required ?? [])
        if (b.kart[f] === undefined || b.kart[f] === "") problems.push(`kart.${f} is required`);
      if (service === "scf_carikart_ekle" && !["AL", "SA", "AS"].includes(String(b.kart.carikarttipi)))
        problems.push("kart.carikarttipi must be AL, SA or AS");
      if (service === "scf_siparis_ekle") {
        const cari = b.kart._key_scf_carikart;
        if (!isObj(cari) || !nonEmpty(cari.carikodu))
          problems.push("kart._key_scf_carikart must be {carikodu}");
        const lines = b.kart.m_kalemler;
        if (!Array.isArray(lines) || lines.length === 0) problems.push("kart.m_kalemler must list the lines");
        else
          for (const l of lines) {
            if (!isObj(l) || !isObj(l._key_scf_stokkart) || !nonEmpty(l._key_scf_stokkart.stokkodu))
              problems.push("line needs _key_scf_stokkart {stokkodu}");
            else if (typeof l.miktar !== "number" || l.miktar <= 0) problems.push("line.miktar must be > 0");
            if (
              isObj(l) &&
              l._key_sis_depo_source !== undefined &&
              !(isObj(l._key_sis_depo_source) && nonEmpty(l._key_sis_depo_source.depokodu))
            )
              problems.push("line._key_sis_depo_source must be {depokodu}");
          }
      }
    }
  }
  return { operation: service, problems };
}
