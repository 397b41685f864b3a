/**
 * Descriptor wiring every connector shares: a descriptor is written as what is particular to its system
 * (type, names, credentials, batch sizes, budget, notes); `defineConnector` adds what nearly all have in
 * common (implemented, reached directly rather than through the on-site agent, no change cursors).
 */

import type { ConnectorDescriptor, ConnectorKind } from "./connector";
import type { ChangeCursorSupport } from "./model";

/** What a connector's own descriptor says; everything else takes `defineConnector`'s default. */
export type DescriptorSpec = Omit<
  ConnectorDescriptor,
  "kind" | "implemented" | "onPremOnly" | "changeCursors"
> &
  Partial<Pick<ConnectorDescriptor, "implemented" | "onPremOnly">> & {
    /** The listings that honour `since` (the others are read whole and compared by the engine). */
    changeCursors?: Partial<ChangeCursorSupport>;
  };

/**
 * A connector's descriptor: implemented, not on-premises only, and with change cursors only for the
 * listings `spec.changeCursors` names.
 */
export function defineConnector<K extends ConnectorKind>(
  kind: K,
  spec: DescriptorSpec,
): ConnectorDescriptor & { kind: K } {
  const changeCursors: ChangeCursorSupport = {
    products: false,
    stock: false,
    prices: false,
    categories: false,
    orders: false,
    ...spec.changeCursors,
  };
  return { kind, implemented: true, onPremOnly: false, ...spec, changeCursors };
}
