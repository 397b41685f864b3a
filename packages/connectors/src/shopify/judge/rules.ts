/**
 * Shopify's runtime rules: what the Admin schema of the pinned version cannot say but Shopify's changelog,
 * docs, official library or live reports do. The contract test applies them to every recorded request
 * (`judgeWithRules`); the emulator refuses what `SHOPIFY_EMULATOR_RULES` refuses, in Shopify's shape.
 */

import { type DocumentNode, type FieldNode, Kind, type OperationDefinitionNode, parse } from "graphql";
import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";
import { SHOPIFY_API_VERSION } from "./derive-schema";

/** Shopify publishes each stable version's support window: at least 12 months from its release. */
export const SHOPIFY_VERSION_PIN: ApiVersionPin = {
  system: "shopify",
  api: "Shopify Admin GraphQL API",
  version: SHOPIFY_API_VERSION,
  // Released 2026-07-01; "each stable version is supported for a minimum of 12 months".
  endOfSupport: "2027-07-01",
  source: "https://shopify.dev/docs/api/usage/versioning (release schedule)",
};

/**
 * Mutations that need `@idempotent(key:)` from 2026-04: those the changelog names (its list is cut in our
 * copy after eight) together with every mutation whose user-error enum in the 2026-07 schema carries
 * `IDEMPOTENCY_KEY_PARAMETER_MISMATCH` (12, derived with graphql-js from the judge's schema).
 */
export const IDEMPOTENT_MUTATIONS: ReadonlySet<string> = new Set([
  "refundCreate",
  "inventoryAdjustQuantities",
  "inventoryMoveQuantities",
  "inventorySetQuantities",
  "inventorySetOnHandQuantities",
  "inventoryShipmentAddItems",
  "inventoryShipmentCreate",
  "inventoryShipmentCreateInTransit",
  "inventoryShipmentReceive",
  "inventoryTransferCreate",
  "inventoryTransferCreateAsReadyToShip",
  "inventoryTransferDuplicate",
  "inventoryTransferSetItems",
]);

export interface GraphqlCall {
  doc: DocumentNode;
  op: OperationDefinitionNode;
  variables: Record<string, unknown>;
}

/** The GraphQL call inside a recorded request to the pinned version (undefined: not one, or unparsable). */
export function graphqlCall(r: Pick<RecordedRequest, "method" | "path" | "body">): GraphqlCall | undefined {
  if (r.method !== "POST" || !r.path.endsWith(`/admin/api/${SHOPIFY_API_VERSION}/graphql.json`)) return;
  const b = r.body as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (typeof b?.query !== "string") return;
  let doc: DocumentNode;
  try {
    doc = parse(b.query);
  } catch {
    return;
  }
  const ops = doc.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const op =
    typeof b.operationName === "string" ? ops.find((o) => o.name?.value === b.operationName) : ops[0];
  if (!op) return;
  return { doc, op, variables: (b.variables ?? {}) as Record<string, unknown> };
}

/** Root mutation fields that need the directive, each with the key it carries (undefined: none). */
export function idempotentFields(call: GraphqlCall): Array<{ field: string; key?: string }> {
  if (call.op.operation !== "mutation") return [];
  const out: Array<{ field: string; key?: string }> = [];
  for (const sel of call.op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || !IDEMPOTENT_MUTATIONS.has(sel.name.value)) continue;
    out.push({ field: sel.name.value, key: directiveKey(sel, call.variables) });
  }
  return out;
}

function directiveKey(field: FieldNode, variables: Record<string, unknown>): string | undefined {
  const d = field.directives?.find((x) => x.name.value === "idempotent");
  const arg = d?.arguments?.find((a) => a.name.value === "key")?.value;
  const v =
    arg?.kind === Kind.STRING
      ? arg.value
      : arg?.kind === Kind.VARIABLE
        ? variables[arg.name.value]
        : undefined;
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

/** What a key stands for: the mutation and its variables (Shopify: "the same mutation variables"). */
function keyFingerprint(field: string, variables: Record<string, unknown>): string {
  return `${field}:${JSON.stringify(variables)}`;
}

const CHANGELOG_MANDATORY =
  "https://shopify.dev/changelog/making-idempotency-mandatory-for-inventory-adjustments-and-refund-mutations";

export const idempotentDirectiveRule: RuntimeRule = {
  id: "shopify.idempotent-directive",
  kind: "required-directive",
  since: "2026-04",
  description:
    "Inventory adjustments and refunds carry @idempotent(key:) with a non-empty key; without it the call fails at runtime.",
  sources: [
    {
      kind: "vendor-changelog",
      ref: CHANGELOG_MANDATORY,
      says: "mandatory from 2026-04; the schema does not show it as mandatory, calls without it error at runtime",
    },
    {
      kind: "vendor-doc",
      ref: "https://shopify.dev/docs/api/admin-graphql/2026-07/mutations/inventorySetOnHandQuantities",
      says: "as of 2026-04 the idempotency key is required and must be provided using @idempotent",
    },
    {
      kind: "public-code",
      ref: "luke-selrai/openclaw-workshop-kit#218 (live run, 2026-05-06)",
      says: "BAD_REQUEST: The @idempotent directive is required for this mutation but was not provided.",
    },
  ],
  check: (r) => {
    const call = graphqlCall(r);
    if (!call) return [];
    return idempotentFields(call)
      .filter((f) => f.key === undefined)
      .map((f) => `${f.field} without @idempotent(key:)`);
  },
};

export const idempotencyKeyReuseRule: RuntimeRule = {
  id: "shopify.idempotency-key-reuse",
  kind: "required-directive",
  since: "2026-01",
  description:
    "One idempotency key stands for one change: a key sent again must come with the same mutation variables.",
  sources: [
    {
      kind: "vendor-doc",
      ref: "https://shopify.dev/docs/api/usage/implementing-idempotency",
      says: "distinct requests need different keys; duplicates (retries, job retries) must reuse the same key",
    },
    {
      kind: "vendor-schema",
      ref: "@shopify/dev-mcp@1.16.0 admin_2026-07: InventorySetQuantitiesUserErrorCode",
      says: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
    },
  ],
  check: (r, earlier) => {
    const call = graphqlCall(r);
    if (!call) return [];
    const problems: string[] = [];
    for (const f of idempotentFields(call)) {
      if (f.key === undefined) continue;
      const mine = keyFingerprint(f.field, call.variables);
      for (const e of earlier) {
        const other = graphqlCall(e);
        if (!other) continue;
        const same = idempotentFields(other).find((g) => g.key === f.key);
        if (same && keyFingerprint(same.field, other.variables) !== mine) {
          problems.push(`${f.field}: key ${f.key} was used before for other variables`);
          break;
        }
      }
    }
    return problems;
  },
};

export const changeFromQuantityRule: RuntimeRule = {
  id: "shopify.change-from-quantity",
  kind: "version-dated",
  since: "2026-04",
  description:
    "Every inventorySetQuantities quantity carries changeFromQuantity (null opts out of compare-and-swap), though the schema makes it nullable.",
  sources: [
    {
      kind: "vendor-schema",
      ref: "@shopify/dev-mcp@1.16.0 admin_2026-07: InventoryQuantityInput.changeFromQuantity description",
      says: "mandatory: you must explicitly pass in a value, even if that value is null",
    },
    {
      kind: "vendor-doc",
      ref: "https://shopify.dev/docs/api/admin-graphql/2027-01/payloads/InventorySetQuantitiesPayload",
      says: "as of 2026-04 each quantity must include changeFromQuantity; omitting it returns an error",
    },
  ],
  check: (r) => {
    const call = graphqlCall(r);
    if (call?.op.operation !== "mutation") return [];
    const problems: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
      } else if (v && typeof v === "object") {
        const o = v as Record<string, unknown>;
        if ("inventoryItemId" in o && "locationId" in o && "quantity" in o && !("changeFromQuantity" in o))
          problems.push(`${path}: changeFromQuantity must be sent (null to skip the compare-and-swap check)`);
        for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
      }
    };
    if (idempotentFields(call).some((f) => f.field === "inventorySetQuantities"))
      walk(call.variables, "variables");
    return problems;
  },
};

export const accessTokenHeaderRule: RuntimeRule = {
  id: "shopify.access-token-header",
  kind: "required-header",
  description: "Every Admin GraphQL call carries X-Shopify-Access-Token (never a bearer header).",
  sources: [
    {
      kind: "vendor-doc",
      ref: "https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/client-credentials-grant",
      says: "use the token in the X-Shopify-Access-Token header",
    },
    {
      kind: "official-sdk",
      ref: "@shopify/admin-api-client@2.0.0 (X-Shopify-Access-Token from its config)",
      says: "the client sets the header on every request",
    },
  ],
  check: (r) =>
    graphqlCall(r) && typeof r.headers["x-shopify-access-token"] !== "string"
      ? ["X-Shopify-Access-Token header missing"]
      : [],
};

export const tokenRequestRule: RuntimeRule = {
  id: "shopify.token-request",
  kind: "value-set",
  description:
    "POST /admin/oauth/access_token: client_id and client_secret, plus a code (authorization code), grant_type client_credentials, or grant_type refresh_token with the refresh token.",
  sources: [
    {
      kind: "official-sdk",
      ref: "@shopify/shopify-api@15.0.0 lib/auth/oauth/{oauth,client-credentials,refresh-token}.ts",
      says: "JSON bodies {client_id, client_secret, code, expiring} / {…, grant_type: client_credentials} / {…, refresh_token, grant_type: refresh_token}",
    },
    {
      kind: "vendor-doc",
      ref: "https://shopify.dev/docs/apps/build/authentication-authorization/client-secrets",
      says: "grant_type=client_credentials&client_id&client_secret (form-encoded in the docs' example)",
    },
  ],
  check: (r) => {
    if (r.method !== "POST" || !r.path.endsWith("/admin/oauth/access_token")) return [];
    const b = (r.body ?? {}) as Record<string, unknown>;
    const has = (k: string) => typeof b[k] === "string" && b[k] !== "";
    const problems = ["client_id", "client_secret"].filter((k) => !has(k)).map((k) => `${k} is missing`);
    const grant = b.grant_type;
    if (grant === undefined) {
      if (!has("code")) problems.push("code is missing (no grant_type)");
    } else if (grant === "refresh_token") {
      if (!has("refresh_token")) problems.push("refresh_token is missing");
    } else if (grant !== "client_credentials") problems.push(`grant_type ${String(grant)} is not Shopify's`);
    return problems;
  },
};

/** Every Shopify runtime rule, in the order the judge reports them. */
export const SHOPIFY_RULES: RuntimeRule[] = [
  idempotentDirectiveRule,
  idempotencyKeyReuseRule,
  changeFromQuantityRule,
  accessTokenHeaderRule,
  tokenRequestRule,
];

/** What the emulator refuses before executing (the rest it answers itself: 401, user errors). */
export const SHOPIFY_EMULATOR_RULES: RuntimeRule[] = [idempotentDirectiveRule];

/** The idempotency key fingerprint the emulator keeps per key. */
export { keyFingerprint as shopifyKeyFingerprint };
