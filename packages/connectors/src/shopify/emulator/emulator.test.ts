import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { shopifyJudgeSchema } from "../judge/schema";
import { CostBucket, queryCost, resultCost } from "./cost";
import { flattenBulk } from "./server";

const op = (q: string) => {
  const doc = parse(q);
  const def = doc.definitions[0];
  if (def?.kind !== "OperationDefinition") throw new Error("no operation");
  return { doc, def };
};

describe("Shopify emulator: cost, bucket, bulk JSONL", () => {
  it("prices a query by Shopify's documented rules", () => {
    const schema = shopifyJudgeSchema();
    const q = op(
      "query($n: Int) { shop { name } products(first: $n) { nodes { id title } pageInfo { hasNextPage } } }",
    );
    // shop 1; products: 2 + 10 × (nodes 1 + pageInfo 1 − 1) = 12.
    expect(queryCost(schema, q.doc, q.def, { n: 10 })).toBe(13);
    const m = op('mutation { a: orderMarkAsPaid(input: { id: "x" }) { userErrors { message } } }');
    expect(queryCost(schema, m.doc, m.def, {})).toBe(10);
    expect(
      resultCost({ products: { nodes: [{ id: "1" }, { id: "2" }], pageInfo: { hasNextPage: false } } }),
    ).toBe(6);
  });

  it("leaks back at the restore rate and refuses a cost it cannot hold", () => {
    let t = 0;
    const b = new CostBucket(100, 10, () => t);
    expect(b.take(80)).toBe(true);
    expect(b.take(30)).toBe(false);
    t = 1000;
    expect(b.status().currentlyAvailable).toBe(30);
    expect(b.take(30)).toBe(true);
    b.refund(50);
    expect(b.status().currentlyAvailable).toBe(50);
  });

  it("writes bulk results as JSONL with children after their parent", () => {
    const flat = flattenBulk({
      products: {
        edges: [
          {
            node: {
              id: "p1",
              title: "A",
              variants: { edges: [{ node: { id: "v1", sku: "S1" } }, { node: { id: "v2", sku: "S2" } }] },
            },
          },
          { node: { id: "p2", title: "B", variants: { edges: [] } } },
        ],
      },
    });
    expect(flat.roots).toBe(2);
    expect(flat.lines.map((l) => JSON.parse(l))).toEqual([
      { id: "p1", title: "A" },
      { id: "v1", sku: "S1", __parentId: "p1" },
      { id: "v2", sku: "S2", __parentId: "p1" },
      { id: "p2", title: "B" },
    ]);
  });
});
