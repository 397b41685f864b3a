import { TRANSPORT_LOST, TRANSPORT_OFFLINE } from "@ep/connectors";
import type { AgentRequestFrame } from "@ep/contracts";

/**
 * Several agents serving one connection (machines of the same network, as an integration runtime has
 * nodes): which one a call goes to, and when a call may move to another one after its agent went away.
 */

/** An agent of a connection that this process can reach now. */
export type NodeState = {
  agentId: number;
  /** Calls it is carrying now (this process's). */
  busy: number;
  /** When its last hello or heartbeat came (ms). */
  seenAt: number;
};

/**
 * The agent a call goes to: the least busy; on a tie the one that carried the connection's last call
 * (so an idle connection does not flip between machines at each heartbeat), then the one seen last.
 */
export function chooseNode<T extends NodeState>(
  nodes: readonly T[],
  carrier: number | undefined,
): T | undefined {
  let best: T | undefined;
  for (const n of nodes) {
    if (!best) best = n;
    else if (n.busy !== best.busy) best = n.busy < best.busy ? n : best;
    else if ((n.agentId === carrier) !== (best.agentId === carrier)) best = n.agentId === carrier ? n : best;
    else if (n.seenAt > best.seenAt) best = n;
  }
  return best;
}

/** A call that changes nothing on the ERP side: safe to send again wherever its answer was lost. */
export function isReadCall(frame: AgentRequestFrame): boolean {
  return frame.type === "http"
    ? ["GET", "HEAD", "OPTIONS"].includes(frame.method.toUpperCase())
    : !!frame.readOnly;
}

/**
 * Whether a call that failed with the transport's `code` may go to another agent of its connection:
 * one never sent (the agent was offline) always; one lost on the way (the agent went away mid-call)
 * only when it is a read. A write that may have been applied is not sent twice: it fails as lost, and
 * the engine's "may already have been applied" rules (the ledger's look-up) decide, on the next run.
 */
export function mayMoveCall(frame: AgentRequestFrame, code: string | undefined): boolean {
  return code === TRANSPORT_OFFLINE || (code === TRANSPORT_LOST && isReadCall(frame));
}
