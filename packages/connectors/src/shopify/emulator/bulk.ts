/**
 * Bulk operations: `bulkOperationRunQuery` starts one, polls move it on, and when it completes its query
 * runs against the emulator's own resolvers and the answer is served as JSONL from `/bulk-results/`.
 */

import { type DocumentNode, execute, type GraphQLSchema, parse, validate } from "graphql";
import type { Resolver } from "./resolvers";
import type { ShopifyState } from "./state";
import type { ShopifyEmulatorCounters } from "./types";

export interface BulkOp {
  id: string;
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED";
  query: string;
  createdAt: string;
  completedAt: string | null;
  polls: number;
  jsonl?: string;
  objectCount: number;
  rootObjectCount: number;
}

/** A bulk query's answer as JSONL: each connection node one line, nested ones with `__parentId`. */
export function flattenBulk(data: Record<string, unknown>): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  const isConn = (v: unknown): v is { edges: Array<{ node: Record<string, unknown> }> } =>
    Boolean(v && typeof v === "object" && Array.isArray((v as { edges?: unknown }).edges));
  const emit = (node: Record<string, unknown>, parentId: string | undefined) => {
    const own: Record<string, unknown> = {};
    const children: Array<{ edges: Array<{ node: Record<string, unknown> }> }> = [];
    for (const [k, v] of Object.entries(node)) {
      if (isConn(v)) children.push(v);
      else own[k] = v;
    }
    lines.push(JSON.stringify(parentId ? { ...own, __parentId: parentId } : own));
    for (const c of children) for (const e of c.edges) emit(e.node, String(node.id));
  };
  for (const v of Object.values(data)) {
    if (!isConn(v)) continue;
    for (const e of v.edges) {
      roots++;
      emit(e.node, undefined);
    }
  }
  return { lines, roots };
}

export class BulkOperations {
  private readonly ops = new Map<string, BulkOp>();
  private readonly pending: BulkOp[] = [];
  /** The resolvers a completed query runs against (set once they are built). */
  root: Record<string, Resolver> = {};
  /** The emulator's URL, known once it listens. */
  url = "";

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly state: ShopifyState,
    private readonly counters: ShopifyEmulatorCounters,
    private readonly now: () => number,
    /** Polls of an operation before it completes. */
    private readonly polls: number,
  ) {}

  /** `bulkOperationRunQuery`: the new operation's id, or Shopify's user error. */
  start(query: string): { id: string; status: string } | { error: { message: string; code: string } } {
    let doc: DocumentNode;
    try {
      doc = parse(query);
    } catch (e) {
      return { error: { message: (e as Error).message, code: "INVALID" } };
    }
    const invalid = validate(this.schema, doc);
    if (invalid.length > 0)
      return { error: { message: invalid.map((e) => e.message).join("; "), code: "INVALID" } };
    if ([...this.ops.values()].some((b) => b.status === "RUNNING" || b.status === "CREATED")) {
      return {
        error: {
          message: "A bulk query operation for this app and shop is already in progress",
          code: "OPERATION_IN_PROGRESS",
        },
      };
    }
    const op: BulkOp = {
      id: this.state.newId("BulkOperation"),
      status: "RUNNING",
      query,
      createdAt: new Date(this.now()).toISOString(),
      completedAt: null,
      polls: 0,
      objectCount: 0,
      rootObjectCount: 0,
    };
    this.ops.set(op.id, op);
    this.counters.bulkOperations++;
    this.pending.push(op);
    return { id: op.id, status: op.status };
  }

  /** The BulkOperation node as `node(id:)` / `currentBulkOperation` read it. */
  node(id: string) {
    const op = this.ops.get(id);
    if (!op) return undefined;
    return {
      __typename: "BulkOperation",
      id: op.id,
      status: op.status,
      type: "QUERY",
      query: op.query,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
      errorCode: op.status === "FAILED" ? "INTERNAL_SERVER_ERROR" : null,
      objectCount: String(op.objectCount),
      rootObjectCount: String(op.rootObjectCount),
      fileSize: op.jsonl === undefined ? null : String(Buffer.byteLength(op.jsonl)),
      url:
        op.status === "COMPLETED" && op.objectCount > 0
          ? `${this.url}/bulk-results/${op.id.split("/").pop()}.jsonl`
          : null,
      partialDataUrl: null,
    };
  }

  /** A poll of a running bulk operation moves it on; after `polls` polls it completes. */
  async advance(doc: DocumentNode, variables: Record<string, unknown>): Promise<void> {
    if (this.pending.length === 0) return;
    const text = JSON.stringify(variables);
    const polled = this.pending.filter((op) => text.includes(op.id) || JSON.stringify(doc).includes(op.id));
    for (const op of polled) {
      op.polls++;
      if (op.polls >= this.polls) {
        this.pending.splice(this.pending.indexOf(op), 1);
        await this.run(op);
      }
    }
  }

  /** The JSONL of a completed operation by its file name (`<id>.jsonl`), undefined when there is none. */
  jsonl(file: string): string | undefined {
    return this.ops.get(`gid://shopify/BulkOperation/${file.replace(/\.jsonl$/, "")}`)?.jsonl;
  }

  private async run(op: BulkOp): Promise<void> {
    const result = await execute({ schema: this.schema, document: parse(op.query), rootValue: this.root });
    if (result.errors?.length || !result.data) {
      op.status = "FAILED";
      return;
    }
    const flat = flattenBulk(result.data as Record<string, unknown>);
    op.jsonl = flat.lines.length ? `${flat.lines.join("\n")}\n` : "";
    op.objectCount = flat.lines.length;
    op.rootObjectCount = flat.roots;
    op.status = "COMPLETED";
    op.completedAt = new Date(this.now()).toISOString();
  }
}
