/**
 * The Hepsiburada judge, listing shapes (issue 37): the Merchant Catalog Service ("Katalog Ürün
 * Entegrasyonu") as its OpenAPI file gives it (developers.hepsiburada.com, mirrored in
 * `taha-kanar/hepsiburada-sdk@ec318b85:openapi/catalog.json`): `uploadProductViaFile` (multipart, one
 * required `file` part, the `integrator.json` sample of the operation's description), `getProductStatusByTraceId`
 * and `getAllAttributeValuesByCategoryIdAndAttributeId`; Image1…Image10 from the changelog "Haziran 2025".
 * Written from the file and the pages, never copied.
 */

import { isRow, type QueryCheck } from "../../testing/rest-judge";

/** The shape of requests.ts's `HepsiburadaOperation` (not imported: requests.ts imports this file). */
interface ListingOperation {
  operation: string;
  service: "catalog";
  method: "GET" | "POST";
  path: RegExp;
  source: string;
  query: Record<string, QueryCheck>;
  body?: (b: unknown) => string[];
}

const CATALOG = "taha-kanar/hepsiburada-sdk@ec318b85:openapi/catalog.json";
const UUID = /^[0-9a-fA-F-]{36}$/;

/** The attributes every product of the import names (the sample's; the rest come from the category). */
export const IMPORT_REQUIRED = [
  "merchantSku",
  "VaryantGroupID",
  "Barcode",
  "UrunAdi",
  "UrunAciklamasi",
  "Marka",
  "tax_vat_rate",
  "price",
  "stock",
];

const int =
  (min = 0, max = Number.MAX_SAFE_INTEGER): QueryCheck =>
  (v) => {
    const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : Number.NaN;
    return Number.isInteger(n) && n >= min && n <= max ? undefined : `must be an integer ${min}..${max}`;
  };
const str: QueryCheck = (v) =>
  typeof v === "string" && v.length > 0 ? undefined : "must be a non-empty string";

/** The parts of a multipart/form-data body (the boundary read from its first line), or a problem. */
export function multipartParts(
  body: unknown,
):
  | { parts: Array<{ name: string; filename?: string; type?: string; content: string }> }
  | { problem: string } {
  if (typeof body !== "string") return { problem: "body must be multipart/form-data" };
  const boundary = /^--([^\r\n]+)\r\n/.exec(body)?.[1];
  if (!boundary || !body.includes(`\r\n--${boundary}--`)) return { problem: "multipart body is not closed" };
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((raw) => {
      const at = raw.indexOf("\r\n\r\n");
      const head = raw.slice(0, at);
      const disposition =
        /content-disposition:\s*form-data;\s*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(head);
      return {
        name: disposition?.[1] ?? "",
        filename: disposition?.[2],
        type: /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim(),
        content: raw.slice(at + 4).replace(/\r\n$/, ""),
      };
    });
  return { parts };
}

/** The products of an import body: its `file` part parsed, or the problems that stop it being read. */
export function importFile(body: unknown): { items: unknown[] } | { problems: string[] } {
  const m = multipartParts(body);
  if ("problem" in m) return { problems: [m.problem] };
  const file = m.parts.find((p) => p.name === "file");
  const p = m.parts.filter((x) => x.name !== "file").map((x) => `${x.name} is not a part of the upload`);
  if (!file?.filename) return { problems: [...p, "a file part named 'file' (with a filename) is required"] };
  try {
    const items = JSON.parse(file.content) as unknown;
    if (!Array.isArray(items)) return { problems: [...p, "the file must hold a JSON array of products"] };
    return p.length > 0 ? { problems: p } : { items };
  } catch {
    return { problems: [...p, "the file is not JSON"] };
  }
}

function importItemProblems(it: unknown, at: string): string[] {
  if (!isRow(it)) return [`${at} must be an object`];
  const p: string[] = [];
  for (const k of Object.keys(it))
    if (!["categoryId", "merchant", "attributes"].includes(k))
      p.push(`${at}${k} is not a property of a product`);
  if (!Number.isInteger(it.categoryId)) p.push(`${at}categoryId must be a whole number`);
  if (typeof it.merchant !== "string" || !UUID.test(it.merchant))
    p.push(`${at}merchant must be the merchant id`);
  const a = it.attributes;
  if (!isRow(a)) return [...p, `${at}attributes must be an object`];
  for (const k of IMPORT_REQUIRED)
    if (typeof a[k] !== "string" || (a[k] as string).trim() === "") p.push(`${at}attributes.${k} required`);
  for (const [k, v] of Object.entries(a)) {
    if (typeof v !== "string" && typeof v !== "number")
      p.push(`${at}attributes.${k} must be text or a number`);
    const image = /^Image(\d+)$/.exec(k);
    if (image && (Number(image[1]) < 1 || Number(image[1]) > 10))
      p.push(`${at}attributes.${k}: Image1…Image10 only`);
  }
  if (typeof a.price === "string" && !/^\d+(,\d{1,2})?$/.test(a.price))
    p.push(`${at}attributes.price must be written like "130,50"`);
  for (const k of ["stock", "tax_vat_rate"])
    if (typeof a[k] === "string" && !/^\d+$/.test(a[k] as string))
      p.push(`${at}attributes.${k} must be a whole number`);
  return p;
}

export const HEPSIBURADA_LISTING_OPERATIONS: ListingOperation[] = [
  {
    operation: "importProducts",
    service: "catalog",
    method: "POST",
    path: /^\/api\/products\/import$/,
    source: `${CATALOG} uploadProductViaFile "Ürün Bilgisi Gönderme" (multipart, required file; integrator.json sample)`,
    query: { version: int(1) },
    body: (b) => {
      const f = importFile(b);
      if ("problems" in f) return f.problems;
      if (f.items.length === 0) return ["the file must not be empty"];
      return f.items.flatMap((it, i) => importItemProblems(it, `[${i}].`));
    },
  },
  {
    operation: "getImportStatus",
    service: "catalog",
    method: "GET",
    path: /^\/api\/products\/status\/[\w-]+$/,
    source: `${CATALOG} getProductStatusByTraceId "Ürün Durumu Sorgulama" (PageResponseImportStatusDTO)`,
    query: { version: int(1), page: int(0), size: int(1, 1000) },
  },
  {
    operation: "getAttributeValues",
    service: "catalog",
    method: "GET",
    path: /^\/api\/categories\/\d+\/attribute\/[^/]+\/values$/,
    source: `${CATALOG} getAllAttributeValuesByCategoryIdAndAttributeId "Özellik Değerini Alma" (enum attributes)`,
    query: { version: int(1), page: int(0), size: int(1, 1000), modifiedAtSince: str },
  },
];
