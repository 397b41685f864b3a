import {
  type ConnectorKind,
  listSalesChannelSandboxes,
  listSandboxSystems,
  type SandboxSystem,
} from "@ep/connectors";

export type {
  OrderArrivals,
  SandboxInstance,
  SandboxProfile,
  SandboxStart,
  SandboxSystem,
} from "@ep/connectors";

/** Every system's built-in sandbox, as its connector folder declares it (`<system>/sandbox.ts`). */
export const SANDBOX_SYSTEMS: readonly SandboxSystem[] = listSandboxSystems();

export function sandboxFor(kind: ConnectorKind, type: number): SandboxSystem | undefined {
  return SANDBOX_SYSTEMS.find((s) => s.kind === kind && s.type === type);
}

/**
 * The marketplaces' sandboxes (issue 37), apart from the spec's systems: they have no type number
 * (0) and are found by their system key; the shop side's seed is theirs too, so their SKUs match the ERP.
 */
export const CHANNEL_SANDBOXES: readonly SandboxSystem[] = listSalesChannelSandboxes()
  .filter((s) => s.available?.() ?? true)
  .map((s) => ({ ...s, kind: "shop" as const, type: 0 }));

export function channelSandboxFor(system: string): SandboxSystem | undefined {
  return CHANNEL_SANDBOXES.find((s) => s.system === system);
}
