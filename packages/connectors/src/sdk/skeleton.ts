/**
 * The skeleton every connector shares. A descriptor is written as what is particular to its system (its
 * key in the spec's list, credentials, batch sizes, budget, notes); `defineConnector` adds what nearly all have in common
 * (implemented, reached directly rather than through the on-site agent, no change cursors). `factoryOf`
 * is the factory the registry calls. The delegating methods of composed connectors live in
 * `ComposedErpConnector` (connector.ts) and `ComposedShopConnector` (composed-shop.ts).
 */

import type {
  ConnectorContext,
  ConnectorDescriptor,
  ConnectorKind,
  CredentialField,
  Credentials,
} from "./connector";
import type { ChangeCursorSupport } from "./model";
import { systemIdentity } from "./systems";

/** What a connector's own descriptor says; everything else takes `defineConnector`'s default. */
export type DescriptorSpec = Omit<
  ConnectorDescriptor,
  "kind" | "type" | "name" | "system" | "implemented" | "onPremOnly" | "changeCursors"
> &
  Partial<Pick<ConnectorDescriptor, "implemented" | "onPremOnly">> & {
    /** The listings that honour `since` (the others are read whole and compared by the engine). */
    changeCursors?: Partial<ChangeCursorSupport>;
  };

/**
 * A connector's descriptor: type number and label from the spec's list (`system` is the key), implemented,
 * not on-premises only, and with change cursors only for the listings `spec.changeCursors` names.
 */
export function defineConnector<K extends ConnectorKind>(
  kind: K,
  system: string,
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
  return {
    kind,
    ...systemIdentity(kind, system),
    implemented: true,
    onPremOnly: false,
    ...spec,
    changeCursors,
  };
}

/** The factory of a connector class built from stored credentials and the engine's context. */
export function factoryOf<C>(
  Connector: new (credentials: Credentials, ctx: ConnectorContext) => C,
): (credentials: Credentials, ctx: ConnectorContext) => C {
  return (credentials, ctx) => new Connector(credentials, ctx);
}

type FieldOptions = Partial<Omit<CredentialField, "name" | "label" | "help" | "secret">>;

/** A field maker: name, Turkish label and help, then what differs from the kind's defaults. */
type FieldMaker = (name: string, label: string, help: string, over?: FieldOptions) => CredentialField;

const fieldOf =
  (kind: Omit<CredentialField, "name" | "label" | "help">): FieldMaker =>
  (name, label, help, over = {}) => ({ name, label, help, ...kind, ...over });

/** A required text field of the connection form. */
export const textField = fieldOf({ secret: false, required: true, type: "text" });

/** A required secret (kept encrypted, never shown again). */
export const secretField = fieldOf({ secret: true, required: true, type: "password" });

/** An optional address (most are the vendor's default, changed only when the vendor says so). */
export const urlField = fieldOf({ secret: false, required: false, type: "url" });
