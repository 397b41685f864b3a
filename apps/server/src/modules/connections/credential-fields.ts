import type { ConnectorDescriptor } from "@ep/connectors";
import type { ConnectionField } from "@ep/contracts";

/** A connector's credential form as the panel draws it (the shop/ERP cards and the channel dialog alike). */
export function credentialFieldsOf(d: ConnectorDescriptor): ConnectionField[] {
  return d.credentials.map((f) => ({
    name: f.name,
    label: f.label,
    help: f.help ?? null,
    secret: f.secret,
    required: f.required,
    type: f.type ?? (f.secret ? "password" : "text"),
    default: f.default ?? null,
    placeholder: f.placeholder ?? null,
  }));
}
