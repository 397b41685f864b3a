/**
 * Hepsiburada's runtime rules (src/testing/runtime-rules.ts): the User-Agent every operation requires,
 * the order filter's own date format (an ISO date is accepted and silently matches nothing), the limit
 * the order lists require, 50 SKUs per listing read, and the status lists that declare a date filter
 * production refuses — where the published file and live findings disagree, both sides are rules.
 */

import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";
import { HEPSIBURADA_IMPORT_BATCH, HEPSIBURADA_SKU_LIST } from "../descriptor";
import { importFile } from "./listing-requests";
import { findOperation } from "./requests";

const SRC = {
  listingSchema: {
    kind: "vendor-schema",
    ref: "developers.hepsiburada.com listeleme v1 OpenAPI, as mirrored in taha-kanar/hepsiburada-sdk@ec318b85:openapi/listing.json",
    says: "every operation: header User-Agent, required: true",
  },
  testSteps: {
    kind: "vendor-doc",
    ref: "https://developers.hepsiburada.com/hepsiburada/reference/listeleme-entegrasyonu-test-süreci-adımları",
    says: "Yetki Basic authentication üzerinden kurulmaktadır. Ek olarak header alanında user-agent girilerek…",
  },
  changelog2023: {
    kind: "vendor-changelog",
    ref: "https://developers.hepsiburada.com/hepsiburada/changelog/hepsiburada-entegrasyon-haziran-2023",
    says: "limit/offset zorunlu; begindate={yyyy-MM-dd HH:mm}&enddate={yyyy-MM-dd HH:mm}",
  },
  liveOverlay: {
    kind: "public-code",
    ref: "taha-kanar/hepsiburada-sdk@0d4b2135:openapi/overlays/order.json (x-observed 2026-06-05, live production calls)",
    says: "only /orders/merchantid/{id} honours begindate, read as Turkey time yyyy-MM-dd HH:mm; an ISO value is accepted and matches nothing; /cancelled, /packages/…/shipped|delivered|undelivered answer 400 WrongDateFormat to every format",
  },
  orderSchema: {
    kind: "vendor-schema",
    ref: "developers.hepsiburada.com sipariş v1.0 Swagger, as mirrored in taha-kanar/hepsiburada-sdk@ec318b85:openapi/order.json",
    says: "limit: 'en fazla ve varsayılan olarak 100 … Limit değeri girilmediğinde hata oluşacaktır'; cancelled: en fazla 50; begindate/enddate declared on /cancelled",
  },
  claimSchema: {
    kind: "vendor-schema",
    ref: "developers.hepsiburada.com talep listeleme v1.0 Swagger, as mirrored in taha-kanar/hepsiburada-sdk@ec318b85:openapi/claim-list.json",
    says: "beginDate / endDate: 'Begin Claim Created Date(yyyy-MM-dd HH:mm)'; limit 1..100; answer: an array of model.Claim",
  },
  skuList: {
    kind: "vendor-doc",
    ref: "https://developers.hepsiburada.com/hepsiburada/reference/hx-listeleme-entegrasyonu-önemli-bilgiler",
    says: "merchantSku bazlı almak için belirtebileceğiniz maksimum merchantSku sayı adedi 50",
  },
  catalogSchema: {
    kind: "vendor-schema",
    ref: "developers.hepsiburada.com Katalog Ürün Entegrasyonu OpenAPI, as mirrored in taha-kanar/hepsiburada-sdk@ec318b85:openapi/catalog.json",
    says: "getProductStatusByTraceId: page (default 0), size 'Her sayfada görmek istediğiniz data sayısı' (default 1000); uploadProductViaFile answers a ResponseObject",
  },
  importClient: {
    kind: "public-code",
    ref: "onurkanbakirci/Integration@3654fe1a:src/Marketplaces/Integration.Marketplaces.Hepsiburada/Infrastructure/ProductIntegration/HepsiburadaProductIntegration.cs",
    says: "CreateProductsAsync posts a bulk list to product/api/products/import; GetProductStatusByTrackingIdAsync reads product/api/products/status/{trackingId}",
  },
} satisfies Record<string, RuleSource>;

const opOf = (method: string, path: string) => findOperation(method, path)?.operation;
const HB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

export function hepsiburadaRules(): RuntimeRule[] {
  return [
    {
      id: "hepsiburada.user-agent",
      kind: "required-header",
      description: "Every request carries a User-Agent (the integrator's user name).",
      sources: [SRC.listingSchema, SRC.testSteps],
      check: (r) => (String(r.headers["user-agent"] ?? "").trim() ? [] : ["User-Agent missing"]),
    },
    {
      id: "hepsiburada.order-date-format",
      kind: "facet",
      description:
        "begindate/enddate of the paid-order list are Turkish wall clock 'yyyy-MM-dd HH:mm' (ISO matches nothing).",
      sources: [SRC.changelog2023, SRC.liveOverlay],
      check: (r) => {
        const op = opOf(r.method, r.path);
        const keys =
          op === "getPaidOrders"
            ? ["begindate", "enddate"]
            : op === "getClaims"
              ? ["beginDate", "endDate"]
              : [];
        return keys
          .filter((k) => r.query[k] !== undefined && !HB_DATE.test(String(r.query[k])))
          .map((k) => `${k} '${String(r.query[k])}' is not yyyy-MM-dd HH:mm`);
      },
    },
    {
      id: "hepsiburada.order-list-limit",
      kind: "facet",
      description: "The order lists carry a limit (paid ≤ 100, cancelled ≤ 50).",
      sources: [SRC.orderSchema, SRC.changelog2023],
      check: (r) => {
        const op = opOf(r.method, r.path);
        if (op !== "getPaidOrders" && op !== "getCancelledOrders") return [];
        const max = op === "getPaidOrders" ? 100 : 50;
        const limit = Number(r.query.limit);
        return Number.isInteger(limit) && limit >= 1 && limit <= max ? [] : [`limit required, 1..${max}`];
      },
    },
    {
      id: "hepsiburada.listing-sku-list-50",
      kind: "facet",
      description: `At most ${HEPSIBURADA_SKU_LIST} merchant SKUs per listing read.`,
      sources: [SRC.skuList],
      check: (r) => {
        if (opOf(r.method, r.path) !== "getListings" || r.query.merchantSkuList === undefined) return [];
        const n = String(r.query.merchantSkuList).split(",").length;
        return n > HEPSIBURADA_SKU_LIST ? [`${n} merchant SKUs (max ${HEPSIBURADA_SKU_LIST})`] : [];
      },
    },
    {
      id: "hepsiburada.import-file-1000",
      kind: "facet",
      description: `At most ${HEPSIBURADA_IMPORT_BATCH} products per catalogue import file: one status page (size ≤ 1000) then reads them all (none is published: our bound).`,
      sources: [SRC.catalogSchema, SRC.importClient],
      check: (r) => {
        if (opOf(r.method, r.path) !== "importProducts") return [];
        const f = importFile(r.body);
        const n = "items" in f ? f.items.length : 0;
        return n > HEPSIBURADA_IMPORT_BATCH
          ? [`${n} products in one file (max ${HEPSIBURADA_IMPORT_BATCH})`]
          : [];
      },
    },
    {
      id: "hepsiburada.cancelled-no-date-filter",
      kind: "value-set",
      side: "live",
      description:
        "The cancelled-order list refuses begindate/enddate (400 WrongDateFormat), though the file declares them.",
      sources: [SRC.liveOverlay],
      check: (r) =>
        opOf(r.method, r.path) === "getCancelledOrders" &&
        (r.query.begindate !== undefined || r.query.enddate !== undefined)
          ? ["date filter on the cancelled list (production: WrongDateFormat)"]
          : [],
    },
  ];
}

export { HEPSIBURADA_VERSION_PIN } from "../descriptor";
