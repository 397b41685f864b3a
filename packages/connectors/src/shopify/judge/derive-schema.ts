/**
 * Derives the Shopify Admin GraphQL judge from Shopify's own artifact: the introspection result shipped
 * in `@shopify/dev-mcp` (`dist/data/admin_<version>.json.gz`), loaded with `buildClientSchema`. The package
 * is not a dependency (it pulls the Shopify CLI): `npm pack` fetches its tarball into a temp dir instead.
 *
 * The full SDL with Shopify's descriptions is ~3.7 MB, over our ~2.5 MB limit. Pruning to the types our
 * root fields reach would make the judge reject any new operation as "unknown field"; dropping the
 * descriptions instead keeps every type, field, argument, default and `@deprecated` (~0.8 MB) — all that
 * validation and execution read.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  type IntrospectionQuery,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
  visit,
} from "graphql";

export const DEV_MCP_PACKAGE = "@shopify/dev-mcp";
export const DEV_MCP_VERSION = "1.16.0";
/** The pinned Admin API version: the latest stable one in the package's supported-versions list. */
export const SHOPIFY_API_VERSION = "2026-07";

export interface DevMcpArtifact {
  /** The gunzipped introspection JSON of the pinned Admin API version. */
  introspection: unknown;
  /** `dist/data/supported-versions-schema.json`. */
  versions: unknown;
}

/** `npm pack` the pinned package into a temp dir (npm caches it) and read the two files the judge needs. */
export function packDevMcp(version = SHOPIFY_API_VERSION): DevMcpArtifact {
  const dir = mkdtempSync(join(tmpdir(), "ep-shopify-judge-"));
  try {
    const out = execFileSync(
      "npm",
      ["pack", `${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION}`, "--json", "--silent", "--pack-destination", dir],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(out.slice(out.indexOf("["))) as Array<{ filename: string }>;
    if (!packed) throw new Error("npm pack answered no tarball");
    const files = [
      "package/dist/data/supported-versions-schema.json",
      `package/dist/data/admin_${version}.json.gz`,
    ];
    execFileSync("tar", [
      "-xzf",
      join(dir, packed.filename.replace(/^@/, "").replace("/", "-")),
      "-C",
      dir,
      ...files,
    ]);
    return {
      versions: JSON.parse(readFileSync(join(dir, files[0] as string), "utf8")),
      introspection: JSON.parse(gunzipSync(readFileSync(join(dir, files[1] as string))).toString("utf8")),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface DerivedShopifySchema {
  sdl: string;
  version: string;
  types: number;
  queries: number;
  mutations: number;
}

/** Which Admin API version the package calls its latest stable one. */
export function latestStableAdminVersion(versions: unknown): string | undefined {
  const admin = (versions as { admin?: Array<{ name: string; latestVersion?: boolean }> }).admin ?? [];
  return admin.find((v) => v.latestVersion)?.name;
}

/** The judge's SDL from the artifact: sorted, descriptions dropped, with a provenance header. */
export function deriveShopifySchema(
  artifact: DevMcpArtifact,
  version = SHOPIFY_API_VERSION,
): DerivedShopifySchema {
  const latest = latestStableAdminVersion(artifact.versions);
  if (latest !== version) {
    throw new Error(`pinned Admin API ${version} is not the package's latest stable version (${latest})`);
  }
  const raw = artifact.introspection as { data?: IntrospectionQuery } & Partial<IntrospectionQuery>;
  const schema = lexicographicSortSchema(buildClientSchema(raw.data ?? (raw as IntrospectionQuery)));
  const bare = visit(parse(printSchema(schema)), {
    enter(node) {
      return "description" in node && node.description ? { ...node, description: undefined } : undefined;
    },
  });
  const header = [
    `# Shopify Admin GraphQL API ${version}: introspection from ${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION}`,
    `# (dist/data/admin_${version}.json.gz), derived by src/shopify/judge/derive-schema.ts; descriptions dropped.`,
    "# Do not edit: run `npm run derive:shopify -w @ep/connectors`.",
    "",
  ];
  return {
    sdl: `${header.join("\n")}${print(bare)}\n`,
    version,
    types: Object.keys(schema.getTypeMap()).filter((n) => !n.startsWith("__")).length,
    queries: Object.keys(schema.getQueryType()?.getFields() ?? {}).length,
    mutations: Object.keys(schema.getMutationType()?.getFields() ?? {}).length,
  };
}
