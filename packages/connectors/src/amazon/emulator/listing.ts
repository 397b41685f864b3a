/**
 * The Amazon emulator's listing side (issue 37): each product type's JSON Schema (Amazon's meta-schema v1
 * vocabulary on JSON Schema 2019-09, small and Turkish for a few Amazon.com.tr types), served from the
 * definition's `schema.link` as Amazon serves it from a presigned address, and `putListingsItem`, which
 * validates the attributes against that schema the way Amazon validates a submission before accepting it:
 * INVALID with `issues` (code, Turkish message, severity, attributeNames, categories), or ACCEPTED and the
 * listing opened. An EAN another SKU of the seller already carries is refused as Amazon refuses a
 * conflicting product id.
 */

import Ajv2019, { type ErrorObject, type ValidateFunction } from "ajv/dist/2019.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AMAZON_TR_MARKETPLACE } from "../descriptor";

type Row = Record<string, unknown>;

/** The types the emulator lists (name, Turkish display name), with what each requires beyond the common. */
export const PRODUCT_TYPES: Array<[string, string]> = [
  ["SHIRT", "Gömlek"],
  ["SHOES", "Ayakkabı"],
  ["HOME", "Ev"],
  ["KITCHEN", "Mutfak"],
  ["TOY_FIGURE", "Oyuncak figür"],
  ["BEAUTY", "Güzellik"],
];

const MP = { $ref: "#/$defs/marketplace_id" };
const LANG = { $ref: "#/$defs/language_tag" };

/** One attribute: an array of one entry whose `value` follows `value`, with the selectors it names. */
function attribute(title: string, value: Row, selectors: Array<"marketplace_id" | "language_tag">): Row {
  return {
    title,
    type: "array",
    minItems: 1,
    maxUniqueItems: 1,
    selectors,
    items: {
      type: "object",
      required: ["value", ...selectors.filter((s) => s === "language_tag")],
      additionalProperties: false,
      properties: {
        value: { title, ...value },
        ...(selectors.includes("marketplace_id") ? { marketplace_id: MP } : {}),
        ...(selectors.includes("language_tag") ? { language_tag: LANG } : {}),
      },
    },
  };
}
const text = (title: string, maxLength: number) =>
  attribute(title, { type: "string", minLength: 1, maxLength }, ["marketplace_id", "language_tag"]);
const closed = (title: string, values: Array<[string, string]>, lang = false) =>
  attribute(
    title,
    { type: "string", enum: values.map(([v]) => v), enumNames: values.map(([, n]) => n) },
    lang ? ["marketplace_id", "language_tag"] : ["marketplace_id"],
  );
/** Free text with suggested values (Amazon's `anyOf` of a string and a listed enum). */
const suggested = (title: string, values: Array<[string, string]>) =>
  attribute(
    title,
    {
      type: "string",
      anyOf: [
        { type: "string", maxLength: 100 },
        { type: "string", enum: values.map(([v]) => v), enumNames: values.map(([, n]) => n) },
      ],
    },
    ["marketplace_id", "language_tag"],
  );
const image = (title: string) => ({
  title,
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    required: ["media_location"],
    additionalProperties: false,
    properties: { media_location: { type: "string", format: "uri", maxLength: 1000 }, marketplace_id: MP },
  },
});

const COLORS: Array<[string, string]> = [
  ["Siyah", "Siyah"],
  ["Beyaz", "Beyaz"],
  ["Lacivert", "Lacivert"],
  ["Kırmızı", "Kırmızı"],
];
const DEPARTMENT = closed(
  "Bölüm",
  [
    ["erkek", "Erkek"],
    ["kadın", "Kadın"],
    ["uniseks", "Uniseks"],
  ],
  true,
);

/** Each type's own attributes and which of them it requires. */
const OWN: Record<string, { properties: Record<string, Row>; required: string[] }> = {
  SHIRT: {
    properties: { department: DEPARTMENT, color: suggested("Renk", COLORS), material: text("Malzeme", 100) },
    required: ["department", "color"],
  },
  SHOES: {
    properties: { department: DEPARTMENT, color: suggested("Renk", COLORS) },
    required: ["department", "color"],
  },
  HOME: {
    properties: {
      color: suggested("Renk", COLORS),
      number_of_items: attribute("Parça sayısı", { type: "integer", minimum: 1 }, ["marketplace_id"]),
    },
    required: ["number_of_items"],
  },
  KITCHEN: {
    properties: { material: text("Malzeme", 100), color: suggested("Renk", COLORS) },
    required: ["material"],
  },
  TOY_FIGURE: { properties: { material: text("Malzeme", 100) }, required: [] },
  BEAUTY: {
    properties: {
      item_form: closed(
        "Ürün formu",
        [
          ["krem", "Krem"],
          ["jel", "Jel"],
          ["sıvı", "Sıvı"],
          ["toz", "Toz"],
        ],
        true,
      ),
    },
    required: ["item_form"],
  },
};

/** The product type's schema for a full listing on Amazon.com.tr (requirements LISTING, enforced). */
export function productTypeSchema(productType: string): Row | undefined {
  const own = OWN[productType];
  if (!own) return undefined;
  return {
    $schema: "https://schemas.amazon.com/selling-partners/definitions/product-types/meta-schema/v1",
    $id: `https://schemas.amazon.com/selling-partners/definitions/product-types/schema/v1/${productType}`,
    $defs: {
      marketplace_id: {
        default: AMAZON_TR_MARKETPLACE,
        editable: false,
        hidden: true,
        type: "string",
        enum: [AMAZON_TR_MARKETPLACE],
        enumNames: ["Amazon.com.tr"],
      },
      language_tag: {
        default: "tr_TR",
        editable: false,
        hidden: true,
        type: "string",
        enum: ["tr_TR"],
        enumNames: ["Türkçe (Türkiye)"],
      },
    },
    type: "object",
    required: [
      "item_name",
      "brand",
      "externally_assigned_product_identifier",
      "product_description",
      "bullet_point",
      "country_of_origin",
      "supplier_declared_dg_hz_regulation",
      "condition_type",
      "purchasable_offer",
      "fulfillment_availability",
      ...own.required,
    ],
    properties: {
      item_name: text("Ürün adı", 200),
      brand: text("Marka adı", 50),
      externally_assigned_product_identifier: {
        title: "Harici ürün kimliği",
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          required: ["type", "value"],
          additionalProperties: false,
          properties: {
            type: { type: "string", enum: ["ean", "gtin", "upc", "isbn"] },
            value: { type: "string", pattern: "^[0-9]{8,14}$" },
            marketplace_id: MP,
          },
        },
      },
      product_description: text("Ürün açıklaması", 2000),
      bullet_point: text("Madde işareti", 500),
      country_of_origin: closed("Menşe ülke", [
        ["TR", "Türkiye"],
        ["CN", "Çin"],
        ["DE", "Almanya"],
        ["IT", "İtalya"],
      ]),
      supplier_declared_dg_hz_regulation: closed("Tehlikeli madde düzenlemesi", [
        ["not_applicable", "Uygulanamaz"],
        ["ghs", "GHS"],
        ["transportation", "Taşıma"],
        ["other", "Diğer"],
      ]),
      condition_type: closed("Ürün durumu", [
        ["new_new", "Yeni"],
        ["used_like_new", "Kullanılmış - Yeni gibi"],
      ]),
      purchasable_offer: {
        title: "Satın alınabilir teklif",
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          required: ["currency", "our_price"],
          additionalProperties: false,
          properties: {
            currency: { type: "string", enum: ["TRY"] },
            our_price: {
              type: "array",
              items: {
                type: "object",
                required: ["schedule"],
                properties: {
                  schedule: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["value_with_tax"],
                      properties: { value_with_tax: { type: "number", exclusiveMinimum: 0 } },
                    },
                  },
                },
              },
            },
            marketplace_id: MP,
          },
        },
      },
      fulfillment_availability: {
        title: "Gönderim stoğu",
        type: "array",
        items: {
          type: "object",
          required: ["fulfillment_channel_code"],
          additionalProperties: false,
          properties: {
            fulfillment_channel_code: { type: "string" },
            quantity: { type: "integer", minimum: 0 },
          },
        },
      },
      main_product_image_locator: image("Ana görsel"),
      other_product_image_locator_1: image("Diğer görsel 1"),
      other_product_image_locator_2: image("Diğer görsel 2"),
      other_product_image_locator_3: image("Diğer görsel 3"),
      ...own.properties,
    },
    additionalProperties: false,
  };
}

/** Ajv's complaint as one of Amazon's issues (messages in the request's issueLocale, here Turkish). */
function issueOf(e: ErrorObject, schema: Row): Row {
  const props = schema.properties as Record<string, Row>;
  const p = e.params as Row;
  const name =
    e.keyword === "required" && e.instancePath === ""
      ? String(p.missingProperty)
      : e.keyword === "additionalProperties" && e.instancePath === ""
        ? String(p.additionalProperty)
        : (e.instancePath.split("/")[1] ?? "");
  const title = String(props[name]?.title ?? name);
  if (e.keyword === "required" && e.instancePath === "")
    return {
      code: "90220",
      message: `'${title}' gerekli, ancak sağlanmadı.`,
      severity: "ERROR",
      attributeNames: [name],
      categories: ["MISSING_ATTRIBUTE"],
    };
  if (e.keyword === "additionalProperties" && e.instancePath === "")
    return {
      code: "100339",
      message: `'${name}' özniteliği bu ürün tipinde yok.`,
      severity: "ERROR",
      attributeNames: [name],
      categories: ["INVALID_ATTRIBUTE"],
    };
  const allowed = Array.isArray(p.allowedValues)
    ? ` (izin verilen: ${(p.allowedValues as string[]).join(", ")})`
    : "";
  return {
    code: "4000001",
    message: `'${title}' için sağlanan değer geçersiz: ${e.message ?? "geçersiz"}${allowed}.`,
    severity: "ERROR",
    attributeNames: [name],
    categories: ["INVALID_ATTRIBUTE"],
  };
}

interface ListingDeps {
  app: FastifyInstance;
  handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => { status?: number; body: unknown } | undefined,
  ): Promise<unknown>;
  sellerId: string;
  listings: Row[];
  bySku: Map<string, Row>;
  now(): number;
}

export function registerListingRoutes(d: ListingDeps): void {
  // Amazon's meta-schema (its $schema) only adds keywords on top of 2019-09: not fetched, its words known.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  for (const k of ["selectors", "enumNames", "editable", "hidden", "maxUniqueItems", "minUniqueItems"])
    ajv.addKeyword(k);
  ajv.addFormat("uri", /^https?:\/\/\S+$/);
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (type: string, schema: Row) => {
    let v = validators.get(type);
    if (!v) {
      v = ajv.compile(schema);
      validators.set(type, v);
    }
    return v;
  };
  let submission = 0;
  let asin = 9_000_000;

  // The schema behind a definition's link (a presigned address at Amazon: no access token).
  d.app.get("/product-type-schemas/:productType", async (req, reply) => {
    const schema = productTypeSchema(String((req.params as Row).productType ?? ""));
    if (!schema) return reply.code(403).send("<Error><Code>AccessDenied</Code></Error>");
    return reply.header("content-type", "application/json").send(JSON.stringify(schema));
  });

  d.app.put("/listings/2021-08-01/items/:sellerId/:sku", (req, reply) =>
    d.handle(req, reply, "write", () => {
      const params = req.params as Row;
      if (params.sellerId !== d.sellerId)
        return {
          status: 403,
          body: { errors: [{ code: "Unauthorized", message: "Access to requested resource is denied." }] },
        };
      const sku = String(params.sku);
      const body = req.body as { productType: string; attributes: Row };
      const schema = productTypeSchema(body.productType);
      const answer = (status: string, issues: Row[]) => ({
        body: { sku, status, submissionId: `${(++submission).toString(16).padStart(32, "0")}`, issues },
      });
      if (!schema)
        return answer("INVALID", [
          {
            code: "4000002",
            message: `'${body.productType}' ürün tipi Amazon.com.tr'de yok.`,
            severity: "ERROR",
            categories: ["INVALID_ATTRIBUTE"],
          },
        ]);
      const validate = validatorOf(body.productType, schema);
      if (!validate(body.attributes))
        return answer(
          "INVALID",
          (validate.errors ?? []).map((e) => issueOf(e, schema)),
        );
      const ean = String(((body.attributes.externally_assigned_product_identifier as Row[])[0] as Row).value);
      const holder = d.listings.find((l) => l.ean === ean && l.sku !== sku);
      if (holder)
        return answer("INVALID", [
          {
            code: "8541",
            message: `Sağlanan ürün kimliği (EAN ${ean}) bu satıcının başka bir SKU'sunda (${String(holder.sku)}) kullanılıyor.`,
            severity: "ERROR",
            attributeNames: ["externally_assigned_product_identifier"],
            categories: ["DUPLICATE"],
          },
        ]);
      if ((req.query as Row).mode === "VALIDATION_PREVIEW") return answer("VALID", []);
      const first = (name: string) => ((body.attributes[name] as Row[] | undefined)?.[0] ?? {}) as Row;
      const at = new Date(d.now()).toISOString();
      const offer = first("purchasable_offer").our_price as Row[];
      const row: Row = {
        sku,
        asin: d.bySku.get(sku)?.asin ?? `B0${String(++asin).padStart(8, "0")}`,
        productType: body.productType,
        itemName: first("item_name").value,
        quantity: Number(first("fulfillment_availability").quantity ?? 0),
        price: Number(((offer?.[0]?.schedule as Row[] | undefined)?.[0] as Row | undefined)?.value_with_tax),
        ean,
        brand: first("brand").value,
        attributes: body.attributes,
        createdDate: d.bySku.get(sku)?.createdDate ?? at,
        lastUpdatedDate: at,
      };
      const old = d.bySku.get(sku);
      if (old) Object.assign(old, row);
      else {
        d.listings.push(row);
        d.bySku.set(sku, row);
      }
      return answer("ACCEPTED", []);
    }),
  );
}
