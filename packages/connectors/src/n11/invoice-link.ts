/**
 * n11's invoice link (issue 37): the one n11 write that is still SOAP only — `SellerInvoiceService`
 * `SaveLinkSellerInvoice`, the order number and the link (HTTPS, PDF/PNG/JPEG/JPG/HTML, at most 2048
 * characters), the key pair in the body's `auth` instead of REST's headers. Sources in VERIFIED.md
 * ("Invoice link"): n11's "Fatura Linki Gönderme" page (still SOAP, as the REST pages say) and public clients
 * of other authors (envelope, namespace, answer `result/status` success|failure with `errorMessage`).
 * Built by hand (one small envelope) rather than through a WSDL download the API host may not serve.
 */

import type { InvoiceAttachment } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpResponse } from "../sdk/http";
import type { N11Client, Row } from "./client";

export const N11_SOAP_NS = "http://www.n11.com/ws/schemas";
/** The service's address (its WSDL is `…/SellerInvoiceService.wsdl`). */
export const N11_INVOICE_SERVICE = "/ws/SellerInvoiceService";
/** n11's limit on the link's length. */
export const N11_INVOICE_LINK_MAX = 2048;

const xml = (v: string) =>
  v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The SaveLinkSellerInvoice envelope (SOAP 1.1). */
export function saveLinkEnvelope(input: {
  appKey: string;
  appSecret: string;
  orderNumber: string;
  url: string;
}): string {
  return [
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sch="${N11_SOAP_NS}">`,
    "<soapenv:Header/><soapenv:Body><sch:SaveLinkSellerInvoiceRequest>",
    `<auth><appKey>${xml(input.appKey)}</appKey><appSecret>${xml(input.appSecret)}</appSecret></auth>`,
    `<url>${xml(input.url)}</url><orderNumber>${xml(input.orderNumber)}</orderNumber>`,
    "</sch:SaveLinkSellerInvoiceRequest></soapenv:Body></soapenv:Envelope>",
  ].join("");
}

const tag = (text: string, name: string) =>
  new RegExp(`<(?:\\w+:)?${name}>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(text)?.[1]?.trim();

/** n11's answer: `result/status` failure (with its `errorMessage`) or a SOAP Fault is a refusal. */
function classify(res: HttpResponse): ConnectorError | undefined {
  const fault = tag(res.text, "faultstring");
  const status = tag(res.text, "status");
  if (!fault && status?.toLowerCase() !== "failure") return undefined;
  const said = fault ?? tag(res.text, "errorMessage") ?? tag(res.text, "errorCode") ?? "failure";
  return new ConnectorError(`n11 saveLinkSellerInvoice: ${said}`, {
    reason: /auth|yetki|appkey|appsecret/i.test(said) ? "auth" : "validation",
    system: "n11",
    operation: "saveLinkSellerInvoice",
    httpStatus: res.status,
    systemMessage: said,
  });
}

/** The package's order number (n11 keys the invoice link by order, our order id is the package). */
async function orderNumberOf(client: N11Client, packageId: string): Promise<string> {
  const body = (await client.get("/rest/delivery/v1/shipmentPackages", "getShipmentPackages", {
    packageIds: packageId,
    page: "0",
    size: "1",
  })) as Row;
  const pkg = (Array.isArray(body?.content) ? (body.content as Row[]) : [])[0];
  if (!pkg?.orderNumber)
    throw new ConnectorError(`n11: package ${packageId} not found`, {
      reason: "not_found",
      system: "n11",
      operation: "getShipmentPackages",
    });
  return String(pkg.orderNumber);
}

/** Saves the invoice's link on the package's n11 order. */
export async function saveN11InvoiceLink(
  client: N11Client,
  packageId: string,
  { invoice }: InvoiceAttachment,
): Promise<void> {
  const url = invoice.url ?? "";
  if (!/^https:\/\//i.test(url) || url.length > N11_INVOICE_LINK_MAX)
    throw new ConnectorError("n11: the invoice link must be an https address of at most 2048 characters", {
      reason: "validation",
      system: "n11",
      operation: "saveLinkSellerInvoice",
    });
  const orderNumber = await orderNumberOf(client, packageId);
  await client.http.request({
    method: "POST",
    url: N11_INVOICE_SERVICE,
    operation: "saveLinkSellerInvoice",
    kind: "write",
    // No source says what a second save of the same order does: never re-sent blindly; the invoice job's
    // claim decides after a lost answer.
    idempotent: false,
    body: {
      text: saveLinkEnvelope({
        appKey: client.creds.appKey ?? "",
        appSecret: client.creds.appSecret ?? "",
        orderNumber,
        url,
      }),
      contentType: "text/xml; charset=utf-8",
    },
    // n11's SOAP services dispatch on the body's root element (Spring-WS): an empty SOAPAction, inferred.
    headers: () => ({ accept: "text/xml", SOAPAction: "" }),
    classify,
  });
}
