/**
 * Derives the D365 F&O entity fixture from Microsoft's public entity reference pages
 * (`MicrosoftDocs/common-data-model-and-service`, `common-data-model/schema/core/operationsCommon/Entities/…`):
 * each page lists the entity's attributes ("## Attributes" table) and, per attribute, its `dataFormat`.
 * Run with the repository checked out: `D365_DOCS_REPO=/path/to/repo npm run derive:d365 -w @ep/connectors`.
 * The public collection name (the URL segment) is not on these pages; it is named per entity below with
 * the source that shows it.
 */

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface EntitySource {
  /** OData entity set (public collection name), the URL segment under /data/. */
  set: string;
  /** Entity name as the reference page names it. */
  entity: string;
  page: string;
  /** Where the collection name comes from. */
  setSource: string;
}

const BASE = "common-data-model/schema/core/operationsCommon/Entities";

export const ENTITY_SOURCES: EntitySource[] = [
  {
    set: "ReleasedProductsV2",
    entity: "EcoResReleasedProductV2Entity",
    page: `${BASE}/SupplyChain/ProductInformationManagement/EcoResReleasedProductV2Entity.md`,
    setSource:
      "../shared/partner-apis/erps.md §12 (d365fo.integrations docs); MicrosoftDocs dual-write map 'Released products V2'",
  },
  {
    set: "ReleasedProductVariantsV2",
    entity: "EcoResReleasedProductVariantV2Entity",
    page: `${BASE}/SupplyChain/ProductInformationManagement/EcoResReleasedProductVariantV2Entity.md`,
    setSource: "inferred: the V2 naming pattern of ReleasedProductsV2",
  },
  {
    set: "WarehousesOnHandV2",
    entity: "InventWarehouseOnHandV2Entity",
    page: `${BASE}/SupplyChain/InventoryAndWarehouseManagement/InventWarehouseOnHandV2Entity.md`,
    setSource:
      '3P: several public integrations call /data/WarehousesOnHandV2 (search: "/data/WarehousesOnHandV2")',
  },
  {
    set: "SalesPriceAgreements",
    entity: "SalesPriceAgreementEntity",
    page: `${BASE}/SupplyChain/SalesAndMarketing/SalesPriceAgreementEntity.md`,
    setSource: "3P: public integrations call /data/SalesPriceAgreements",
  },
  {
    set: "PriceCustomerGroups",
    entity: "PriceDiscPriceCustomerGroupEntity",
    page: `${BASE}/SupplyChain/InventoryAndWarehouseManagement/PriceDiscPriceCustomerGroupEntity.md`,
    setSource: "3P: d365fo.integrations entity list ('PriceCustomerGroups')",
  },
  {
    set: "Warehouses",
    entity: "InventWarehouseEntity",
    page: `${BASE}/SupplyChain/InventoryAndWarehouseManagement/InventWarehouseEntity.md`,
    setSource: "3P: public integrations call /data/Warehouses",
  },
  {
    set: "ProductCategories",
    entity: "EcoResProductCategoryEntity",
    page: `${BASE}/SupplyChain/ProductInformationManagement/EcoResProductCategoryEntity.md`,
    setSource: "3P: d365fo.integrations entity list ('ProductCategories')",
  },
  {
    set: "ProductCategoryAssignments",
    entity: "EcoResProductCategoryAssignmentEntity",
    page: `${BASE}/SupplyChain/ProductInformationManagement/EcoResProductCategoryAssignmentEntity.md`,
    setSource: "inferred: the plural of the entity's label 'Product category assignment'",
  },
  {
    set: "CustomersV3",
    entity: "CustCustomerV3Entity",
    page: `${BASE}/Finance/AccountsReceivable/CustCustomerV3Entity.md`,
    setSource: "../shared/partner-apis/erps.md §12 ('CustomersV3 for entity CustomerV3')",
  },
  {
    set: "SalesOrderHeadersV2",
    entity: "SalesOrderHeaderV2Entity",
    page: `${BASE}/SupplyChain/SalesAndMarketing/SalesOrderHeaderV2Entity.md`,
    setSource: "../shared/partner-apis/erps.md §12; issue #16",
  },
  {
    set: "SalesOrderLines",
    entity: "SalesOrderLineV2Entity",
    page: `${BASE}/SupplyChain/SalesAndMarketing/SalesOrderLineV2Entity.md`,
    setSource: "issue #16; 3P: d365fo.integrations entity list ('SalesOrderLines')",
  },
  {
    set: "SalesInvoiceHeadersV2",
    entity: "SalesInvoiceHeaderV2Entity",
    page: `${BASE}/Finance/AccountsReceivable/SalesInvoiceHeaderV2Entity.md`,
    setSource: "3P: d365fo.integrations entity list ('SalesInvoiceHeadersV2')",
  },
  {
    set: "SalesInvoiceLines",
    entity: "SalesInvoiceLineV2Entity",
    page: `${BASE}/Finance/AccountsReceivable/SalesInvoiceLineV2Entity.md`,
    setSource: "3P: d365fo.integrations entity list ('SalesInvoiceLines')",
  },
];

export type DataFormat = string;

export interface DerivedEntity {
  set: string;
  entity: string;
  page: string;
  setSource: string;
  /**
   * Company-specific (keyed by `dataAreaId`): the page lists the `PrimaryCompanyContext` relationship.
   * Shared entities (product categories…) have no company.
   */
  companySpecific: boolean;
  /** Attribute name → dataFormat as the page gives it (amounts are "string" there, so types are not judged). */
  fields: Record<string, DataFormat>;
}

/** The attributes of one reference page, with their data formats (relationship columns left out). */
export function parseEntityPage(markdown: string): Record<string, DataFormat> {
  const fields: Record<string, DataFormat> = {};
  const heads = [...markdown.matchAll(/^### <a href=#(\w+) name="\w+">\w+<\/a>$/gm)];
  for (let i = 0; i < heads.length; i++) {
    const m = heads[i] as RegExpMatchArray;
    const name = m[1] as string;
    if (/Relationship/i.test(name)) continue;
    const end = heads[i + 1]?.index ?? markdown.length;
    const section = markdown.slice(m.index ?? 0, end);
    const format = /<td>dataFormat<\/td><td>(\w+)<\/td>/.exec(section)?.[1] ?? "string";
    fields[name] = format;
  }
  return fields;
}

export function deriveEntities(repo: string): { commit: string; entities: DerivedEntity[] } {
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  const commit = git("rev-parse", "HEAD").trim();
  const entities = ENTITY_SOURCES.map((s) => {
    const page = git("show", `HEAD:${s.page}`);
    return {
      ...s,
      companySpecific: page.includes("PrimaryCompanyContextRelationshipId"),
      fields: parseEntityPage(page),
    };
  });
  return { commit, entities };
}

if (process.argv[1]?.endsWith("derive-entities.ts")) {
  const repo = process.env.D365_DOCS_REPO;
  if (!repo)
    throw new Error("set D365_DOCS_REPO to a checkout of MicrosoftDocs/common-data-model-and-service");
  const out = {
    source: "MicrosoftDocs/common-data-model-and-service",
    ...deriveEntities(repo),
  };
  writeFileSync(join(import.meta.dirname, "entities.generated.json"), `${JSON.stringify(out, null, 1)}\n`);
}
