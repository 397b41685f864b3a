/**
 * Calculated query cost as Shopify documents it (the numbers are from Shopify's rate-limit docs, not the
 * artifact — inferred): scalars and enums 0, an object 1, a connection 2 plus `first`/`last` times the
 * cost of one node, a mutation 10. The emulator charges it against a leaky bucket per store.
 */

import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isLeafType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

export const MUTATION_COST = 10;

function argNumber(value: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === "number" ? v : undefined;
  }
  return undefined;
}

function selectionCost(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  set: SelectionSetNode | undefined,
  variables: Record<string, unknown>,
  fragments: Map<string, FragmentDefinitionNode>,
): number {
  if (!set) return 0;
  let total = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (!("getFields" in parent)) continue;
      const def = parent.getFields()[sel.name.value];
      if (!def) continue;
      const named = getNamedType(def.type);
      if (isLeafType(named) || !isCompositeType(named)) continue;
      const child = selectionCost(schema, named, sel.selectionSet, variables, fragments);
      if (named.name.endsWith("Connection")) {
        const args = new Map(sel.arguments?.map((a) => [a.name.value, a.value]));
        const size = argNumber(args.get("first"), variables) ?? argNumber(args.get("last"), variables) ?? 1;
        // `nodes` / `edges { node }` are charged once per requested row.
        total += 2 + size * Math.max(0, child - 1);
      } else total += 1 + child;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
      if (t && isCompositeType(t)) total += selectionCost(schema, t, sel.selectionSet, variables, fragments);
    } else {
      const f = fragments.get(sel.name.value);
      const t = f ? schema.getType(f.typeCondition.name.value) : undefined;
      if (f && t && isCompositeType(t))
        total += selectionCost(schema, t, f.selectionSet, variables, fragments);
    }
  }
  return total;
}

/** Requested cost of the operation in `doc`. */
export function queryCost(
  schema: GraphQLSchema,
  doc: DocumentNode,
  op: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number {
  const fragments = new Map(
    doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  if (op.operation === "mutation") return MUTATION_COST * op.selectionSet.selections.length;
  const root = schema.getQueryType();
  return root ? Math.max(1, selectionCost(schema, root, op.selectionSet, variables, fragments)) : 1;
}

/**
 * Actual cost of an answer: what it returned, by the same rules (an object 1, a connection 2, scalars 0);
 * Shopify refunds the difference to the requested cost (inferred from its documentation).
 */
export function resultCost(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + resultCost(v), 0);
  if (!value || typeof value !== "object") return 0;
  const o = value as Record<string, unknown>;
  const own = Array.isArray(o.nodes) || Array.isArray(o.edges) ? 2 : 1;
  let n = own;
  for (const v of Object.values(o)) n += resultCost(v);
  return n;
}

/** Shopify's leaky bucket of one store: `maximumAvailable` points, refilled at `restoreRate` per second. */
export class CostBucket {
  private available: number;
  private last: number;

  constructor(
    public maximumAvailable: number,
    public restoreRate: number,
    private readonly now: () => number,
  ) {
    this.available = maximumAvailable;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.available = Math.min(
      this.maximumAvailable,
      this.available + ((t - this.last) / 1000) * this.restoreRate,
    );
    this.last = t;
  }

  /** Take `cost` points; false (nothing taken) when the bucket holds fewer. */
  take(cost: number): boolean {
    this.refill();
    if (this.available < cost) return false;
    this.available -= cost;
    return true;
  }

  /** Give back points charged but not spent (requested − actual). */
  refund(points: number): void {
    this.refill();
    this.available = Math.min(this.maximumAvailable, this.available + Math.max(0, points));
  }

  status(): { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } {
    this.refill();
    return {
      maximumAvailable: this.maximumAvailable,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }

  drain(): void {
    this.refill();
    this.available = 0;
  }
}
