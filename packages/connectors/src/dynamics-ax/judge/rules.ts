/**
 * Dynamics AX 2012 runtime rules: the string sizes of the extended data types behind the sales order
 * fields we write. The PHP types of a live SalesOrderService client name the types
 * (AxdExtType_CustPurchaseOrder, …) but carry no facets; Microsoft's AX 2012 reference gives each EDT's
 * String Size, and AIF validates a document against the schema it generates from them, so a longer value
 * is refused. Our XSDs keep these fields as plain strings; the sizes live here, with their sources.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";

/**
 * AX 2012 R3 is the last AX 2012 release; Microsoft's extended support for it ended on 2023-01-10 (Fixed
 * Lifecycle Policy; mainstream ended 2021-10-12). There is no newer AIF version to move to: the successor
 * is Dynamics 365 F&O (our type 17). The pin states the date, so its test says it in both languages.
 */
export const AX_VERSION_PIN: ApiVersionPin = {
  system: "dynamics-ax",
  api: "Microsoft Dynamics AX 2012 R3 AIF document services",
  version: "AX 2012 R3",
  endOfSupport: "2023-01-10",
  source:
    "Microsoft Lifecycle, Dynamics AX 2012 R3 (Fixed Lifecycle Policy: extended support end 2023-01-10; the page was not fetched here); stoneridgesoftware.com (2021): AX 2012 R3 mainstream support ends October 2021, extended support in 2023",
};

const EDT = "https://learn.microsoft.com/en-us/previous-versions/dynamics/ax-2012/reference/";

/** Field of SalesTable → EDT, its String Size and the reference page that says so. */
export const AX_FIELD_SIZES: Record<string, { edt: string; size: number; page: string }> = {
  PurchOrderFormNum: { edt: "CustPurchaseOrder", size: 20, page: `${EDT}gg846830(v=ax.60)` },
  CustomerRef: { edt: "CustRef", size: 60, page: `${EDT}gg846831(v=ax.60)` },
  CustAccount: { edt: "CustAccount", size: 20, page: `${EDT}gg905452(v=ax.60)` },
};

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const xmlText = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e.startsWith("#x") || e.startsWith("#X")
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith("#")
        ? String.fromCodePoint(Number(e.slice(1)))
        : (XML_ENTITIES[e.toLowerCase()] ?? ""),
  );

/** The values of one element of a SOAP body (any prefix), entities resolved. */
export function elementValues(xml: string, name: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}>([^<]*)</(?:[\\w.-]+:)?${name}>`, "g");
  return [...xml.matchAll(re)].map((m) => xmlText(m[1] ?? ""));
}

const isCreate = (r: RecordedRequest) => {
  const action = r.headers.soapaction;
  return String(Array.isArray(action) ? action[0] : (action ?? "")).includes("SalesOrderService/create");
};

export const AX_RULES: RuntimeRule[] = [
  {
    id: "dynamics-ax.edt-string-size",
    kind: "facet",
    description:
      "A sales order's PurchOrderFormNum fits CustPurchaseOrder (20 characters), CustomerRef fits CustRef (60), CustAccount fits CustAccount (20).",
    sources: [
      {
        kind: "vendor-doc",
        ref: AX_FIELD_SIZES.PurchOrderFormNum?.page ?? EDT,
        says: "CustPurchaseOrder Extended Data Type (Customer requisition number): Base Type String, String Size 20",
      },
      {
        kind: "vendor-doc",
        ref: "https://learn.microsoft.com/en-us/previous-versions/dynamics/ax-2012/application-classes/gg936771(v=ax.60)",
        says: "AxSalesTable.parmPurchOrderFormNum takes and returns a CustPurchaseOrder",
      },
      {
        kind: "public-code",
        ref: "etrias-nl/rase-connector@b190fe4f:src/SoapTypes/AxdEntity_SalesLine.php (public code id 3549472756)",
        says: "the live service's WSDL types PurchorderFormNum as AxdExtType_CustPurchaseOrder and CustomerRef as AxdExtType_CustRefLine",
      },
      {
        kind: "vendor-doc",
        ref: AX_FIELD_SIZES.CustomerRef?.page ?? EDT,
        says: "CustRef Extended Data Type: String Size 60; WMSCustomer extends CustAccount: String Size 20",
      },
    ],
    check(r) {
      if (r.method !== "POST" || !isCreate(r) || typeof r.body !== "string") return [];
      const body = r.body;
      return Object.entries(AX_FIELD_SIZES).flatMap(([field, { edt, size }]) =>
        elementValues(body, field)
          .filter((v) => [...v].length > size)
          .map((v) => `${field} '${v}' is ${[...v].length} characters; ${edt} holds ${size}`),
      );
    },
  },
];
