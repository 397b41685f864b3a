/**
 * Uyumsoft (8) and UyumsoftPortal (18) as ERP connectors: an e-invoice service's ERP face
 * (`EInvoiceServiceConnector`: WhoAmI is the connection test, catalogue and order calls are "unsupported"),
 * with the e-invoice work in `provider`.
 */

import type { ConnectorContext, ConnectorDescriptor, Credentials } from "../sdk/connector";
import { EInvoiceServiceConnector } from "../sdk/einvoice-connector";
import { uyumsoftDescriptor, uyumsoftPortalDescriptor } from "./descriptor";
import { UyumsoftProvider } from "./provider";

export class UyumsoftConnector extends EInvoiceServiceConnector<UyumsoftProvider> {
  constructor(
    credentials: Credentials,
    ctx: ConnectorContext,
    descriptor: ConnectorDescriptor = uyumsoftDescriptor,
  ) {
    super(new UyumsoftProvider(credentials, ctx, descriptor), descriptor);
  }
}

export const createUyumsoftConnector = (credentials: Credentials, ctx: ConnectorContext) =>
  new UyumsoftConnector(credentials, ctx, uyumsoftDescriptor);

export const createUyumsoftPortalConnector = (credentials: Credentials, ctx: ConnectorContext) =>
  new UyumsoftConnector(credentials, ctx, uyumsoftPortalDescriptor);
