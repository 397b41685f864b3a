/**
 * Rebuilds the IKAS Admin GraphQL schema (SDL) from the graphql-codegen typings IKAS publishes in
 * `@ikas/api-client` (`dist/api/admin/generated/index.d.ts`). The typings are the vendor's artifact; the
 * SDL derived here is the judge every request of our connector is validated against.
 *
 * Codegen conventions read back (TypeScript compiler API, not text matching):
 * - `Scalars` lists built-in and custom scalars (custom ones become `scalar X`);
 * - `export declare enum X { A = "A" }` is an enum (values taken from the initialisers);
 * - an object alias with a `__typename` member is an output type, `Query` / `Mutation` the roots;
 * - `Query<field>Args` / `Mutation<field>Args` hold a root field's arguments;
 * - any other object alias is an input type;
 * - `Maybe<T>` / `InputMaybe<T>` make a position nullable, everything else is non-null;
 *   `Array<T>` is a list, `Scalars['X']` the scalar X.
 */

import { createRequire } from "node:module";
import ts from "typescript";

const BUILT_IN_SCALARS = new Set(["ID", "String", "Boolean", "Int", "Float"]);
const HELPER_ALIASES = new Set(["Maybe", "InputMaybe", "Exact", "MakeOptional", "MakeMaybe", "Scalars"]);

export const IKAS_API_CLIENT_TYPINGS = "@ikas/api-client/dist/api/admin/generated/index.d.ts";

/** Absolute path of the typings in the installed (pinned) package. */
export function ikasTypingsPath(): string {
  return createRequire(import.meta.url).resolve(IKAS_API_CLIENT_TYPINGS);
}

export interface DerivedSchema {
  sdl: string;
  queries: number;
  mutations: number;
  types: number;
  inputs: number;
  enums: number;
  scalars: string[];
}

interface Field {
  name: string;
  type: string;
}

function fail(node: ts.Node, message: string): never {
  const sf = node.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
  throw new Error(`${sf.fileName}:${line + 1}: ${message}`);
}

/** GraphQL type of a codegen type node; `nullable` is true inside Maybe/InputMaybe. */
function gqlType(node: ts.TypeNode): string {
  const inner = (n: ts.TypeNode): { name: string; nullable: boolean } => {
    if (ts.isTypeReferenceNode(n)) {
      const ref = n.typeName.getText();
      const args = n.typeArguments ?? [];
      if ((ref === "Maybe" || ref === "InputMaybe") && args[0]) {
        return { name: inner(args[0]).name, nullable: true };
      }
      if (ref === "Array" && args[0]) return { name: `[${gqlType(args[0])}]`, nullable: false };
      if (args.length > 0) fail(n, `unexpected generic ${ref}`);
      return { name: ref, nullable: false };
    }
    if (ts.isIndexedAccessTypeNode(n)) {
      const obj = n.objectType.getText();
      const idx = n.indexType;
      if (obj === "Scalars" && ts.isLiteralTypeNode(idx) && ts.isStringLiteral(idx.literal)) {
        return { name: idx.literal.text, nullable: false };
      }
      fail(n, `unexpected indexed type ${n.getText()}`);
    }
    return fail(n, `unexpected type ${n.getText()}`);
  };
  const t = inner(node);
  return t.nullable ? t.name : `${t.name}!`;
}

function fieldsOf(literal: ts.TypeLiteralNode): Field[] {
  const out: Field[] = [];
  for (const m of literal.members) {
    if (!ts.isPropertySignature(m) || !m.type) fail(m, "expected a property with a type");
    const name = m.name.getText();
    if (name === "__typename") continue;
    out.push({ name, type: gqlType(m.type) });
  }
  return out;
}

function hasTypename(literal: ts.TypeLiteralNode): boolean {
  return literal.members.some((m) => ts.isPropertySignature(m) && m.name.getText() === "__typename");
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Derive the SDL from the text of `index.d.ts`. Output is sorted, so it is stable across runs. */
export function deriveIkasSchema(dtsText: string, fileName = "index.d.ts"): DerivedSchema {
  const sf = ts.createSourceFile(fileName, dtsText, ts.ScriptTarget.Latest, true);
  const scalars: string[] = [];
  const enums: Array<{ name: string; values: string[] }> = [];
  const outputs: Array<{ name: string; fields: Field[] }> = [];
  const inputs: Array<{ name: string; fields: Field[] }> = [];
  const args = new Map<string, Field[]>();
  const roots = new Map<string, Field[]>();

  for (const s of sf.statements) {
    if (ts.isEnumDeclaration(s)) {
      const values = s.members.map((m) => {
        if (m.initializer && ts.isStringLiteral(m.initializer)) return m.initializer.text;
        return fail(m, "enum member without a string value");
      });
      enums.push({ name: s.name.text, values });
      continue;
    }
    if (!ts.isTypeAliasDeclaration(s)) fail(s, `unexpected statement ${ts.SyntaxKind[s.kind]}`);
    const name = s.name.text;
    if (name === "Scalars") {
      if (!ts.isTypeLiteralNode(s.type)) fail(s, "Scalars is not an object type");
      for (const m of s.type.members) {
        const scalar = m.name?.getText() ?? fail(m, "unnamed scalar");
        if (!BUILT_IN_SCALARS.has(scalar)) scalars.push(scalar);
      }
      continue;
    }
    if (HELPER_ALIASES.has(name)) continue;
    if (!ts.isTypeLiteralNode(s.type)) fail(s, `type ${name} is not an object type`);
    const rootArgs = /^(Query|Mutation)(\w+)Args$/.exec(name);
    if (name === "Query" || name === "Mutation") roots.set(name, fieldsOf(s.type));
    else if (rootArgs && !hasTypename(s.type)) args.set(`${rootArgs[1]}.${rootArgs[2]}`, fieldsOf(s.type));
    else if (hasTypename(s.type)) outputs.push({ name, fields: fieldsOf(s.type) });
    else inputs.push({ name, fields: fieldsOf(s.type) });
  }

  const lines: string[] = [
    "# Derived from @ikas/api-client typings by packages/connectors/src/ikas/judge/derive-schema.ts.",
    "# Do not edit: run `npm run derive:ikas -w @ep/connectors` after changing the pinned package.",
    "",
  ];
  const block = (keyword: string, name: string, body: string[]) => {
    lines.push(`${keyword} ${name} {`, ...body.map((b) => `  ${b}`), "}", "");
  };
  for (const s of [...scalars].sort()) lines.push(`scalar ${s}`, "");
  for (const e of [...enums].sort(byName)) block("enum", e.name, e.values);
  for (const i of [...inputs].sort(byName)) {
    block(
      "input",
      i.name,
      i.fields.map((f) => `${f.name}: ${f.type}`),
    );
  }
  let queries = 0;
  let mutations = 0;
  for (const root of ["Query", "Mutation"] as const) {
    const fields = roots.get(root);
    if (!fields) throw new Error(`${fileName}: no ${root} type`);
    if (root === "Query") queries = fields.length;
    else mutations = fields.length;
    block(
      "type",
      root,
      fields.map((f) => {
        const a = args.get(`${root}.${f.name}`);
        args.delete(`${root}.${f.name}`);
        const list = a && a.length > 0 ? `(${a.map((x) => `${x.name}: ${x.type}`).join(", ")})` : "";
        return `${f.name}${list}: ${f.type}`;
      }),
    );
  }
  if (args.size > 0) throw new Error(`argument types without a root field: ${[...args.keys()].join(", ")}`);
  for (const o of [...outputs].sort(byName)) {
    block(
      "type",
      o.name,
      o.fields.map((f) => `${f.name}: ${f.type}`),
    );
  }
  return {
    sdl: `${lines.join("\n").trimEnd()}\n`,
    queries,
    mutations,
    types: outputs.length,
    inputs: inputs.length,
    enums: enums.length,
    scalars,
  };
}
