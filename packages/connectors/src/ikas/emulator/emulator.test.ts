import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ikasJudgeSchema } from "../judge/schema";
import { type IkasEmulator, startIkasEmulator } from "./server";

let emu: IkasEmulator;
let token = "";

async function gql(query: string, variables?: Record<string, unknown>, bearer = token) {
  const res = await fetch(emu.credentials.apiUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
  return { status: res.status, body, code: body.errors?.[0]?.extensions?.code };
}

beforeAll(async () => {
  emu = await startIkasEmulator({ seed: 5, productCount: 12, orderCount: 3, rateLimit: false });
  const res = await fetch(emu.credentials.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: emu.credentials.clientId,
      client_secret: emu.credentials.clientSecret,
    }).toString(),
  });
  const t = (await res.json()) as { access_token: string; expires_in: number };
  expect(t.expires_in).toBe(14_400);
  token = t.access_token;
});

afterAll(async () => {
  await emu.close();
});

describe("IKAS emulator executes the schema derived from @ikas/api-client", () => {
  it("answers every query and mutation of the package, the unemulated ones with an UNKNOWN error", async () => {
    const schema = ikasJudgeSchema();
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toHaveLength(63);
    const r = await gql("query { getMerchantLicence { id } }");
    expect(r.status).toBe(200);
    expect(r.code).toBe("UNKNOWN");
    expect(r.body.errors?.[0]?.message).toContain("getMerchantLicence");
  });

  it("refuses documents the real schema refuses (400 GRAPHQL_VALIDATION_FAILED)", async () => {
    const float = await gql("query($gte: Float) { listOrder(updatedAt: { gte: $gte }) { count } }", {
      gte: 1,
    });
    expect([float.status, float.code]).toEqual([400, "GRAPHQL_VALIDATION_FAILED"]);
    const field = await gql("query { listProduct { data { variants { variantValues { id } } } } }");
    expect([field.status, field.code]).toEqual([400, "GRAPHQL_VALIDATION_FAILED"]);
  });

  it("refuses variables the real schema refuses (400 BAD_USER_INPUT), nothing applied", async () => {
    const o = emu.state.orders[0];
    const before = o?.invoices.length;
    const r = await gql("mutation($input: AddOrderInvoiceInput!) { addOrderInvoice(input: $input) { id } }", {
      input: { orderId: o?.id, invoiceNumber: "A1", invoiceDate: 1, ettn: "x", fileName: "a.pdf" },
    });
    expect([r.status, r.code]).toEqual([400, "BAD_USER_INPUT"]);
    expect(r.body.errors?.map((e) => e.message).join()).toMatch(/appId/);
    expect(o?.invoices.length).toBe(before);
    const status = await gql(
      "mutation($input: UpdateOrderPackageStatusInput!) { updateOrderPackageStatus(input: $input) { id } }",
      { input: { orderId: o?.id, packages: [{ packageId: "p", status: "UNFULFILLED" }] } },
    );
    expect([status.status, status.code]).toEqual([400, "BAD_USER_INPUT"]);
    const ts = await gql("query($gte: Timestamp) { listOrder(updatedAt: { gte: $gte }) { count } }", {
      gte: "yesterday",
    });
    expect([ts.status, ts.code]).toEqual([400, "BAD_USER_INPUT"]);
  });

  it("answers refused input inside HTTP 200 with ARGUMENT_VALIDATION_ERROR", async () => {
    const r = await gql("mutation($input: CategoryInput!) { saveCategory(input: $input) { id } }", {
      input: { name: "X", parentId: "no-such-parent" },
    });
    expect([r.status, r.code]).toEqual([200, "ARGUMENT_VALIDATION_ERROR"]);
  });

  it("links variants to variant types and values as entities", async () => {
    const r = await gql(
      "query { listVariantType { id name values { id name } } listProduct(pagination: { limit: 50 }) { data { productVariantTypes { variantTypeId variantValueIds } variants { sku variantValueIds { variantTypeId variantValueId } } } } }",
    );
    interface Listed {
      listVariantType: Array<{ id: string; values: Array<{ id: string }> }>;
      listProduct: {
        data: Array<{
          variants: Array<{ variantValueIds: Array<{ variantTypeId: string; variantValueId: string }> }>;
        }>;
      };
    }
    const { listVariantType: types, listProduct } = r.body.data as unknown as Listed;
    expect(types.length).toBeGreaterThan(0);
    const products = listProduct.data;
    const refs = products.flatMap((p) => p.variants.flatMap((v) => v.variantValueIds));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const t = types.find((x) => x.id === ref.variantTypeId);
      expect(t?.values.some((v) => v.id === ref.variantValueId)).toBe(true);
    }
    // A value that is not declared in the product's productVariantTypes is refused.
    const t = types[0];
    const bad = await gql("mutation($input: ProductInput!) { saveProduct(input: $input) { id } }", {
      input: {
        name: "Bildirilmemiş Seçenek",
        type: "PHYSICAL",
        variants: [
          {
            sku: "UNDECLARED-1",
            isActive: true,
            prices: [],
            variantValueIds: [{ variantTypeId: t?.id, variantValueId: t?.values[0]?.id }],
          },
        ],
      },
    });
    expect([bad.status, bad.code]).toEqual([200, "ARGUMENT_VALIDATION_ERROR"]);
  });

  it("has new orders without a package (OrderPackageFulfillStatusEnum has no UNFULFILLED)", async () => {
    const o = emu.generateOrders(1)[0];
    expect(o?.orderPackages).toEqual([]);
    expect(o?.orderPackageStatus).toBe("UNFULFILLED");
  });

  it("answers an expired token with 401 UNAUTHENTICATED", async () => {
    emu.expireTokens();
    const r = await gql("query { getMerchant { id } }");
    expect([r.status, r.code]).toEqual([401, "UNAUTHENTICATED"]);
    const none = await gql("query { getMerchant { id } }", undefined, "not-a-token");
    expect([none.status, none.code]).toEqual([401, "UNAUTHENTICATED"]);
  });
});
