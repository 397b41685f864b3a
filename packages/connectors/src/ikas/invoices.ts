/** IKAS invoices: `addOrderInvoice` with the fields the package requires, once per invoice number. */

import type { InvoiceAttachment } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { IkasClient } from "./client";

interface InvoiceOrderDto {
  id: string;
  billingAddress: { taxNumber: string | null } | null;
  invoices: Array<{ invoiceNumber: string }> | null;
}

export class IkasInvoices {
  private appId?: string;

  constructor(private readonly client: IkasClient) {}

  /** `AddOrderInvoiceInput.appId`: "the app id where the merchant is registered", our authorized app. */
  private async authorizedAppId(): Promise<string> {
    if (this.appId) return this.appId;
    const d = await this.client.gql<{ getAuthorizedApp: { id: string } | null }>(
      "getAuthorizedApp",
      "read",
      "query AuthorizedApp { getAuthorizedApp { id } }",
    );
    if (!d.getAuthorizedApp) {
      throw new ConnectorError("ikas: the token belongs to no authorized app", {
        reason: "config",
        system: "ikas",
        operation: "getAuthorizedApp",
      });
    }
    this.appId = d.getAuthorizedApp.id;
    return this.appId;
  }

  async attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void> {
    const inv = attachment.invoice;
    const order = await this.client.byId<InvoiceOrderDto>(
      "listOrder",
      "OrderInvoices",
      "id billingAddress { taxNumber } invoices { invoiceNumber }",
      orderId,
      { operation: "addOrderInvoice", what: "order" },
    );
    // The package does not say the shop dedupes invoices, so a repeat is caught here, by number.
    if ((order.invoices ?? []).some((i) => i.invoiceNumber === inv.number)) return;
    const date = Date.parse(inv.date);
    await this.client.gql(
      "addOrderInvoice",
      "write",
      "mutation AddInvoice($input: AddOrderInvoiceInput!) { addOrderInvoice(input: $input) { id } }",
      {
        input: {
          orderId,
          appId: await this.authorizedAppId(),
          invoiceNumber: inv.number,
          type: order.billingAddress?.taxNumber ? "COMPANY" : "INDIVIDUAL",
          // The ERP or e-invoice system informs the customer; the shop stays quiet.
          sendNotificationToCustomer: false,
          createdAt: Number.isFinite(date) ? date : null,
          base64: inv.pdfBase64 ?? null,
        },
      },
    );
  }
}
