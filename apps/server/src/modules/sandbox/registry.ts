import { type ConnectorKind, listSandboxSystems, type SandboxSystem } from "@ep/connectors";

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
