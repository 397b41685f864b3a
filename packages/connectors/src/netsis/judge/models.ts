/**
 * The judge for Netsis, part 1: the request and answer models of the vendor's own .NET client
 * (`NetOpenX.Rest.Client.dll`, committed by gvardal/NetOpenX at 7786984), read from the DLL's metadata
 * by ./derive-models.sh into ./netopenx-models.generated.json: every model names its DLL type, every
 * property its CLR type. A body field that is no property of its model, or of the wrong type, is refused.
 *
 * What the DLL does not say (which fields the server requires, how the `q` filter is spelled, the SQL
 * tables behind `Queries`) is kept apart below and marked "inferred" with where it comes from.
 */

import fixture from "./netopenx-models.generated.json" with { type: "json" };

export type NetopenxModelName = keyof typeof fixture.models;
export interface NetopenxModel {
  dllType: string;
  properties: Record<string, string>;
}

export const NETOPENX = fixture;
export const NETOPENX_SOURCE = `${fixture.source.repository}@${fixture.source.commit.slice(0, 7)}:${fixture.source.path}`;
export const MODELS: Record<string, NetopenxModel> = fixture.models;
export const ENUMS: Record<string, Record<string, number>> = fixture.enums;

/** `JTFaturaTip` members the connector uses (DLL constants). */
export const FATURA_TIP = {
  salesInvoice: fixture.enums.JTFaturaTip.ftSFat,
  customerOrder: fixture.enums.JTFaturaTip.ftSSip,
} as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Newtonsoft's DateTime text: ISO date, optional time, optional offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function valueProblems(type: string, v: unknown, at: string): string[] {
  if (v === null) return []; // every reference and Nullable<> property takes null
  const [kind, arg] = type.split(":") as [string, string | undefined];
  switch (kind) {
    case "string":
      return typeof v === "string" ? [] : [`${at} must be a string`];
    case "int":
      return typeof v === "number" && Number.isInteger(v) ? [] : [`${at} must be a whole number`];
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? [] : [`${at} must be a number`];
    case "bool":
      return typeof v === "boolean" ? [] : [`${at} must be true or false`];
    case "datetime":
      return typeof v === "string" && DATE_TIME.test(v) ? [] : [`${at} must be a date-time text`];
    case "enum": {
      const members = arg ? ENUMS[arg] : undefined;
      // Newtonsoft writes enums as their numbers unless a StringEnumConverter is set; the DLL sets none.
      if (typeof v !== "number" || !Number.isInteger(v)) return [`${at} must be a ${arg} number`];
      if (members && !Object.values(members).includes(v)) return [`${at}: ${v} is no ${arg} member`];
      return [];
    }
    case "object":
      if (!isObj(v)) return [`${at} must be an object`];
      return arg && MODELS[arg] ? modelProblems(arg, v, at) : [];
    case "list":
      if (!Array.isArray(v)) return [`${at} must be a list`];
      return v.flatMap((x, i) =>
        arg && MODELS[arg]
          ? isObj(x)
            ? modelProblems(arg, x, `${at}[${i}]`)
            : [`${at}[${i}] must be an object`]
          : [],
      );
    default:
      return [];
  }
}

/** Problems of `value` as an instance of the DLL model `model` (unknown fields, wrong types). */
export function modelProblems(model: string, value: unknown, at = model): string[] {
  const m = MODELS[model];
  if (!m) return [`${at}: no model ${model} in the DLL`];
  if (!isObj(value)) return [`${at} must be an object`];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const type = m.properties[k];
    if (type === undefined) out.push(`${at}.${k} is not a property of ${m.dllType}`);
    else out.push(...valueProblems(type, v, `${at}.${k}`));
  }
  return out;
}

/**
 * Fields a write must carry: the DLL marks none as required, so these are inferred from what the
 * server cannot do without (a slip needs its account, type and lines; a line its item and quantity;
 * an account its code) and from the third-party clients in ../../../../../shared/partner-apis/erps.md §3b.
 */
export function requiredProblems(model: "ItemSlips" | "ARPs" | "QueryParam", v: Obj): string[] {
  const out: string[] = [];
  const text = (x: unknown) => typeof x === "string" && x.trim() !== "";
  if (model === "QueryParam" && !text(v.TSql)) out.push("QueryParam.TSql is required");
  if (model === "ARPs") {
    const prim = v.CariTemelBilgi;
    if (!isObj(prim) || !text(prim.CARI_KOD)) out.push("ARPs.CariTemelBilgi.CARI_KOD is required");
    else if (String(prim.CARI_KOD).length > 15)
      // Inferred: TBLCASABIT.CARI_KOD is 15 characters in Netsis databases.
      out.push("ARPs.CariTemelBilgi.CARI_KOD is longer than 15");
  }
  if (model === "ItemSlips") {
    if (typeof v.FaturaTip !== "number") out.push("ItemSlips.FaturaTip is required");
    const head = v.FatUst;
    if (!isObj(head)) out.push("ItemSlips.FatUst is required");
    else {
      if (!text(head.CariKod)) out.push("ItemSlips.FatUst.CariKod is required");
      if (typeof head.Tip !== "number") out.push("ItemSlips.FatUst.Tip is required");
      else if (head.Tip !== v.FaturaTip) out.push("ItemSlips.FatUst.Tip must equal ItemSlips.FaturaTip");
      if (!text(head.Tarih)) out.push("ItemSlips.FatUst.Tarih is required");
      if (typeof head.FATIRS_NO === "string" && head.FATIRS_NO.length > 15)
        out.push("ItemSlips.FatUst.FATIRS_NO is longer than 15");
      for (const k of Object.keys(head).filter((x) => /^EKACK\d+$/.test(x)))
        if (typeof head[k] === "string" && (head[k] as string).length > 50)
          out.push(`ItemSlips.FatUst.${k} is longer than 50`);
    }
    if (!text(v.Seri) && !(isObj(head) && text(head.FATIRS_NO)))
      out.push("ItemSlips needs FatUst.FATIRS_NO or a Seri to number from");
    const lines = v.Kalems;
    if (!Array.isArray(lines) || lines.length === 0) out.push("ItemSlips.Kalems must list the lines");
    else
      lines.forEach((l, i) => {
        if (!isObj(l) || !text(l.StokKodu)) out.push(`ItemSlips.Kalems[${i}].StokKodu is required`);
        else if (typeof l.STra_GCMIK !== "number" || l.STra_GCMIK <= 0)
          out.push(`ItemSlips.Kalems[${i}].STra_GCMIK must be > 0`);
      });
  }
  return out;
}

/**
 * The `q` filter of a list call (SelectFilter.Filter, sent as `&q={0}`): a conjunction of
 * `Property op value` over the row model's properties. Inferred: third-party clients write filters as
 * `Tarih > '…' AND …` (erps.md §3b); the DLL only shows that the text goes into `q` unchanged.
 */
const COMPARISON = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=|<>|>=|<=|>|<)\s*('(?:[^']|'')*'|-?\d+(?:\.\d+)?)\s*$/;

export function filterProblems(q: string, model: string): string[] {
  const m = MODELS[model];
  if (!m) return [`no model ${model}`];
  const parts = q.split(/\s+AND\s+(?=(?:[^']*'[^']*')*[^']*$)/i);
  const out: string[] = [];
  for (const p of parts) {
    const c = COMPARISON.exec(p);
    if (!c) out.push(`q: "${p.trim()}" is not "Property op value"`);
    else if (m.properties[c[1] as string] === undefined)
      out.push(`q: ${c[1]} is not a property of ${m.dllType}`);
  }
  return out;
}

/** `sort` (SortParam "{0} {1}", comma-joined): `Property ASC|DESC` over the row model. */
export function sortProblems(sort: string, model: string): string[] {
  const m = MODELS[model];
  if (!m) return [`no model ${model}`];
  return sort.split(",").flatMap((s) => {
    const [field, dir, ...rest] = s.trim().split(/\s+/);
    if (!field || rest.length > 0 || (dir !== undefined && !/^(ASC|DESC)$/i.test(dir)))
      return [`sort: "${s}" is not "Property ASC|DESC"`];
    return m.properties[field] === undefined ? [`sort: ${field} is not a property of ${m.dllType}`] : [];
  });
}

/**
 * The SQL tables `Queries` reads (inferred: Netsis's own database schema as integrators query it —
 * TBLSTOKPH holds running totals per item and depot, TBLSTOKDP the depots, TBLSTGRUP the item groups;
 * third-party clients read stock balances through `Queries`, erps.md §3b). The DLL only carries the
 * `QueryParam { TSql }` body and the `Queries/` route.
 */
export const NETSIS_SQL_TABLES: Record<string, string[]> = {
  TBLSTOKPH: ["STOK_KODU", "DEPO_KODU", "TOP_GIRIS_MIK", "TOP_CIKIS_MIK"],
  TBLSTOKDP: ["DEPO_KODU", "DEPO_ISMI"],
  TBLSTGRUP: ["GRUP_KOD", "GRUP_ISIM"],
};
