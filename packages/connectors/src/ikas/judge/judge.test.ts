import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { judgeIkasRequest } from "./conformance";
import { deriveIkasSchema, ikasTypingsPath } from "./derive-schema";
import { IKAS_SDL_PATH, ikasJudgeSchema } from "./schema";

describe("IKAS schema derived from @ikas/api-client", () => {
  it("is checked in exactly as the pinned package derives it", () => {
    const typings = ikasTypingsPath();
    const derived = deriveIkasSchema(readFileSync(typings, "utf8"), typings);
    expect(derived.queries).toBe(63);
    expect(derived.mutations).toBe(69);
    expect(derived.scalars.sort()).toEqual(["JSON", "Timestamp"]);
    // Fails when the package or the derivation changes: run `npm run derive:ikas -w @ep/connectors`.
    expect(derived.sdl).toBe(readFileSync(IKAS_SDL_PATH, "utf8"));
  });

  it("maps codegen nullability, lists, scalars, enums and root arguments", () => {
    const d = deriveIkasSchema(`
      export type Maybe<T> = T | null;
      export type InputMaybe<T> = Maybe<T>;
      export type Scalars = { ID: string; String: string; Timestamp: any };
      export declare enum ColorEnum { RED = "RED", DARK_BLUE = "DARK_BLUE" }
      export type Thing = { __typename?: 'Thing'; id: Scalars['String']; tags?: Maybe<Array<Scalars['String']>>;
        color: ColorEnum; at?: Maybe<Scalars['Timestamp']> };
      export type ThingInput = { id?: InputMaybe<Scalars['String']>; names: Array<Scalars['String']> };
      export type Query = { __typename?: 'Query'; listThing: Array<Thing>; getThing?: Maybe<Thing> };
      export type QuerylistThingArgs = { id?: InputMaybe<Scalars['String']>; input: ThingInput };
      export type Mutation = { __typename?: 'Mutation'; saveThing: Thing };
      export type MutationsaveThingArgs = { input: ThingInput };
    `);
    expect(d.sdl).toContain("scalar Timestamp");
    expect(d.sdl).toContain("enum ColorEnum {\n  RED\n  DARK_BLUE\n}");
    expect(d.sdl).toContain(
      "type Thing {\n  id: String!\n  tags: [String!]\n  color: ColorEnum!\n  at: Timestamp\n}",
    );
    expect(d.sdl).toContain("input ThingInput {\n  id: String\n  names: [String!]!\n}");
    expect(d.sdl).toContain("listThing(id: String, input: ThingInput!): [Thing!]!");
    expect(d.sdl).toContain("getThing: Thing\n");
    expect(d.sdl).toContain("saveThing(input: ThingInput!): Thing!");
    expect([d.queries, d.mutations]).toEqual([2, 1]);
  });

  it("refuses typings it does not understand instead of guessing", () => {
    expect(() => deriveIkasSchema("export type Odd = string | number;")).toThrow(/not an object type/);
    expect(() =>
      deriveIkasSchema(
        "export type Query = { __typename?: 'Query'; a: Scalars['String'] }; export type QuerybArgs = { x: Scalars['String'] };",
      ),
    ).toThrow(/no Mutation type|without a root field/);
  });

  it("judges documents and variables as the real API would", () => {
    expect(ikasJudgeSchema().getQueryType()?.getFields().listOrder).toBeDefined();
    const bad = judgeIkasRequest({
      query: 'query($gte: Float) { listOrder(updatedAt: { gte: $gte }, sort: "updatedAt") { count } }',
      variables: { gte: 1 },
    });
    expect(bad.errors.join()).toMatch(/"Float" used in position expecting type "Timestamp"/);
    const good = judgeIkasRequest({
      query: "query Orders($gte: Timestamp) { listOrder(updatedAt: { gte: $gte }) { count } }",
      variables: { gte: 1 },
    });
    expect(good).toMatchObject({ operation: "query Orders", errors: [] });
    const badVars = judgeIkasRequest({
      query: "mutation Inv($input: AddOrderInvoiceInput!) { addOrderInvoice(input: $input) { id } }",
      variables: { input: { orderId: "o1", invoiceNumber: "A1", ettn: "x" } },
    });
    expect(badVars.errors.join("\n")).toMatch(/appId.*not provided/);
    expect(badVars.errors.join("\n")).toMatch(/"ettn" is not defined/);
    const badEnum = judgeIkasRequest({
      query:
        "mutation S($input: UpdateOrderPackageStatusInput!) { updateOrderPackageStatus(input: $input) { id } }",
      variables: { input: { orderId: "o1", packages: [{ packageId: "p1", status: "UNFULFILLED" }] } },
    });
    expect(badEnum.errors.join()).toMatch(/UNFULFILLED/);
  });
});
