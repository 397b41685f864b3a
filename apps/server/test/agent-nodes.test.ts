import type { AgentRequestFrame } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { activeNode } from "../src/modules/agents/connection-nodes.ts";
import { chooseNode, mayMoveCall } from "../src/modules/agents/nodes.ts";

const node = (agentId: number, busy: number, seenAt: number) => ({ agentId, busy, seenAt });
const http = (method: string): AgentRequestFrame => ({
  type: "http",
  id: "c1",
  method,
  url: "http://erp:8094/x",
  headers: {},
  body: undefined,
  timeoutMs: 1000,
});
const sql = (readOnly: boolean): AgentRequestFrame => ({
  type: "sql",
  id: "c2",
  target: { alias: "erp" },
  text: "SELECT 1",
  timeoutMs: 1000,
  ...(readOnly ? { readOnly } : {}),
});

describe("a connection's agents", () => {
  it("sends a call to the least busy agent; on a tie to the last carrier, then to the one seen last", () => {
    expect(chooseNode([node(1, 2, 50), node(2, 0, 10)], 1)?.agentId).toBe(2);
    expect(chooseNode([node(1, 0, 10), node(2, 0, 50)], 1)?.agentId).toBe(1);
    expect(chooseNode([node(1, 0, 10), node(2, 0, 50)], undefined)?.agentId).toBe(2);
    expect(chooseNode([], 1)).toBeUndefined();
  });

  it("moves a call to another agent only when it was never sent or is a read", () => {
    expect(mayMoveCall(http("POST"), "ETRANSPORTOFFLINE")).toBe(true);
    expect(mayMoveCall(http("POST"), "ETRANSPORTLOST")).toBe(false);
    expect(mayMoveCall(http("get"), "ETRANSPORTLOST")).toBe(true);
    expect(mayMoveCall(sql(true), "ETRANSPORTLOST")).toBe(true);
    expect(mayMoveCall(sql(false), "ETRANSPORTLOST")).toBe(false);
    // The ERP's own failure (the agent reached nothing) is not the agent going away.
    expect(mayMoveCall(http("GET"), "ECONNREFUSED")).toBe(false);
  });

  it("shows the last carrier as active while it is online, else the first online agent", () => {
    const online = (ids: number[]) => (id: number) => ids.includes(id);
    expect(activeNode([1, 2], online([1, 2]), 2)).toBe(2);
    expect(activeNode([1, 2], online([1]), 2)).toBe(1);
    expect(activeNode([1, 2], online([]), 2)).toBeUndefined();
  });
});
