import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { buildBatch, parseBatch, parseFilter } from "../odata";
import { deriveEntities, ENTITY_SOURCES, parseEntityPage } from "./derive-entities";
import fixture from "./entities.generated.json" with { type: "json" };
import { judgeD365Request } from "./requests";

const AUTH = { authorization: "Bearer abc" };

function get(path: string, query: Record<string, unknown>): RecordedRequest {
  return { at: 0, method: "GET", path, query, headers: AUTH, body: undefined };
}

function problems(r: RecordedRequest): string[] {
  return judgeD365Request(r)?.problems ?? ["unknown to the judge"];
}

describe("D365 F&O judge", () => {
  it("names its source: Microsoft's entity reference pages at a commit, one page per entity set", () => {
    expect(fixture.source).toBe("MicrosoftDocs/common-data-model-and-service");
    expect(fixture.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(fixture.entities.map((e) => e.set)).toEqual(ENTITY_SOURCES.map((s) => s.set));
    for (const e of fixture.entities) {
      expect(e.page).toMatch(/^common-data-model\/schema\/core\/operationsCommon\/Entities\/.+\.md$/);
      expect(Object.keys(e.fields).length).toBeGreaterThan(2);
    }
    const lines = fixture.entities.find((e) => e.set === "SalesOrderLines");
    expect(Object.keys(lines?.fields ?? {})).toEqual(
      expect.arrayContaining(["SalesOrderNumber", "ItemNumber", "OrderedSalesQuantity"]),
    );
  });

  it("reads attributes and formats from a reference page", () => {
    const page = [
      "## Attributes",
      '### <a href=#ItemNumber name="ItemNumber">ItemNumber</a>',
      "<table><tr><td>dataFormat</td><td>string</td></tr></table>",
      '### <a href=#Qty name="Qty">Qty</a>',
      "<table><tr><td>dataFormat</td><td>decimal</td></tr></table>",
      '### <a href=#Relationship_XRelationshipId name="Relationship_XRelationshipId">Relationship_XRelationshipId</a>',
    ].join("\n");
    expect(parseEntityPage(page)).toEqual({ ItemNumber: "string", Qty: "decimal" });
  });

  // Re-derivation needs a checkout of the docs repository (D365_DOCS_REPO); CI without it checks the rest.
  it.runIf(!!process.env.D365_DOCS_REPO && existsSync(process.env.D365_DOCS_REPO ?? ""))(
    "re-derives the fixture from the docs repository and finds it unchanged",
    () => {
      const again = deriveEntities(process.env.D365_DOCS_REPO as string);
      expect(again.entities).toEqual(fixture.entities);
    },
  );

  it("accepts a well-formed read and rejects unknown sets, properties and bad syntax", () => {
    const ok = get("/data/ReleasedProductsV2", {
      "cross-company": "true",
      $filter: "dataAreaId eq 'TR01' and (ItemNumber eq 'A''B' or ItemNumber eq 'C')",
      $select: "ItemNumber,SalesPrice",
      $top: "1",
    });
    expect(problems(ok)).toEqual([]);
    expect(problems(get("/data/InventOnhandEntities", {}))).toEqual([
      "unknown entity set InventOnhandEntities",
    ]);
    expect(problems(get("/data/ReleasedProductsV2", { $select: "ItemNumber,ProductName" }))).toEqual([
      "$select: ReleasedProductsV2 has no property ProductName",
    ]);
    expect(problems(get("/data/ReleasedProductsV2", { $filter: "ItemNumber eq 'x" }))[0]).toContain(
      "does not parse",
    );
    expect(problems(get("/data/ReleasedProductsV2", { $orderby: "ItemNumber" }))).toEqual([
      "unknown query option $orderby",
    ]);
    // Shared entities have no company.
    expect(problems(get("/data/ProductCategories", { $filter: "dataAreaId eq 'TR01'" }))).toEqual([
      "$filter: ProductCategories has no property dataAreaId",
    ]);
    expect(problems({ ...get("/data/Warehouses", {}), headers: {} })).toEqual([
      "Authorization: Bearer <token> missing",
    ]);
  });

  it("checks create bodies and batch change sets against the entity fields", () => {
    const post = (body: unknown): RecordedRequest => ({
      at: 0,
      method: "POST",
      path: "/data/SalesOrderHeadersV2",
      query: {},
      headers: { ...AUTH, "content-type": "application/json" },
      body,
    });
    expect(problems(post({ dataAreaId: "TR01", CustomersOrderReference: "W1" }))).toEqual([]);
    expect(problems(post({ CustomersOrderReference: "W1", OrderNo: "x" }))).toEqual([
      "body: SalesOrderHeadersV2 has no property OrderNo",
      "body: dataAreaId (company) missing",
    ]);
    const b = buildBatch(
      [{ method: "POST", url: "https://x/data/SalesOrderLines", body: { dataAreaId: "TR01", Qty: 1 } }],
      "t1",
    );
    const batch: RecordedRequest = {
      at: 0,
      method: "POST",
      path: "/data/$batch",
      query: {},
      headers: { ...AUTH, "content-type": b.contentType },
      body: b.body,
    };
    expect(problems(batch)).toEqual(["part 1: SalesOrderLines has no property Qty"]);
    const flat = b.body.replace(
      /Content-Type: multipart\/mixed; boundary=changeset_t1\r\n\r\n--changeset_t1\r\n/,
      "",
    );
    expect(problems({ ...batch, body: flat })).not.toEqual([]);
  });

  it("checks the token request of the Entra ID v2 client-credentials grant", () => {
    const token = (body: Record<string, string>): RecordedRequest => ({
      at: 0,
      method: "POST",
      path: "/t/oauth2/v2.0/token",
      query: {},
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    const good = {
      grant_type: "client_credentials",
      client_id: "a",
      client_secret: "b",
      scope: "https://e.operations.dynamics.com/.default",
    };
    expect(problems(token(good))).toEqual([]);
    expect(problems(token({ ...good, scope: "", resource: "https://e" }))).toEqual([
      "scope must be '<environment URL>/.default'",
      "the v2 endpoint takes scope, not resource",
    ]);
  });

  it("round-trips a change set and reads filters with the parser", () => {
    const b = buildBatch(
      [
        { method: "POST", url: "https://x/data/A", body: { a: 1 } },
        { method: "POST", url: "https://x/data/A", body: { a: 2 } },
      ],
      "id",
    );
    const parts = parseBatch(b.contentType, b.body);
    expect(parts?.map((p) => [p.changeset, p.mimeHeaders["content-id"], JSON.parse(p.body).a])).toEqual([
      ["changeset_id", "1", 1],
      ["changeset_id", "2", 2],
    ]);
    expect(parseFilter("A eq 'x''y' and B gt 2")).toEqual({
      op: "and",
      left: { op: "eq", field: "A", value: "x'y" },
      right: { op: "gt", field: "B", value: 2 },
    });
  });
});
