/**
 * Nebim V3 runtime rules: the sign-in sequence the samples cannot show. In session mode IIS keeps the
 * session in the URL (cookieless). Sources disagree on what a Connect to the bare
 * `/IntegratorService/Connect` gets:
 * - "cookieless-redirect": IIS answers any URL without `(S(id))` with a 302 to the session URL, so a POST
 *   carrying the credentials is followed as a GET without its body and only Web.config's user (if any) is
 *   signed in. The vendor docs' own Connect example is addressed to `/(S(id))/IntegratorService/Connect`,
 *   and a client run against a live V3 first fetches the session URL (redirects off, `Location`) and then
 *   posts Connect to it.
 * - "direct": another live client posts Connect to the bare URL and gets the SessionID in the answer.
 * The connector plays safe on both: a bodyless GET Connect opens the session, the credentials go to that
 * session's own URL (see ../api.ts).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";
import { parseNebimPath } from "./requests";

export type NebimSessionSide = "cookieless-redirect" | "direct";

const hasCredentials = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  ["DatabaseName", "UserGroupCode", "UserName", "Password"].some(
    (k) => String((body as Record<string, unknown>)[k] ?? "") !== "",
  );

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const NEBIM_VERSION_PIN: ApiVersionPin = {
  system: "nebim",
  api: "Nebim V3 IntegratorService",
  version: "V3 Integrator (REST/JSON)",
  endOfSupport: null,
  noDateReason: "Nebim publishes no lifecycle dates for the Integrator; it runs on the customer's own IIS",
  source: "cemyeten/nebim-v3-integrator-docs@ced78ec9 (vendor PDF and docs)",
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const NEBIM_RULES: RuntimeRule<RecordedRequest>[] = [
  {
    id: "nebim.internet-order-payment",
    kind: "write-side-effect",
    description:
      "An internet sales order (ModelType 5/6 with IsSalesViaInternet) carries its payment: Payments[] with PaymentType and the paid Amount, beside OrdersViaInternetInfo, so V3 records the order as paid; one paid at the door (PaymentTypeCode 3) has taken no payment yet and carries none.",
    sources: [
      {
        kind: "vendor-doc",
        ref: "NEBIM V3 Integrator Document-EN.pdf (cemyeten/nebim-v3-integrator-docs), retail order notes",
        says: "PaymentTypeCode of OrdersViaInternetInfo: 1 CREDITCART/BANKCARD, 2 EFT/REMITTANCE, 3 PAYMENT ON DELIVERY, 4 PAYMENT INTERMEDIARY, 5 OTHER; Payments arrays: if takes payment on order, this field is sent (PaymentType 1 cash, 2 credit card, 4 remittance/EFT, 7 credit voucher)",
      },
      {
        kind: "public-code",
        ref: "Shopify → Nebim integration (public code id 66524814329)",
        says: "retail orders with IsSalesViaInternet send Payments [{PaymentType: 2, CreditCardTypeCode, CurrencyCode: TRY, InstallmentCount: 1, Amount: the order's payment}] and OrdersViaInternetInfo {SalesUrl, PaymentTypeCode 1, PaymentAgent, …}",
      },
      {
        kind: "public-code",
        ref: "PHP shop → Nebim order writer (public code id 16130098766)",
        says: "Payments [{PaymentType 2, CreditCardTypeCode IYZ, InstallmentCount 1, CurrencyCode TRY, Amount total_price}] with OrdersViaInternetInfo {SalesURL, PaymentAgent, …}",
      },
      {
        kind: "public-code",
        ref: "Odoo → Nebim (Hamurlabs field order, public code id 55611906898)",
        says: "the internet order payload carries OrdersViaInternetInfo with SalesURL and PaymentAgent and a Payments list",
      },
    ],
    check(r) {
      const parsed = parseNebimPath(r.path);
      const body = r.body;
      if (parsed?.command !== "Post" || !isObj(body)) return [];
      if (![5, 6].includes(Number(body.ModelType)) || body.IsSalesViaInternet !== true) return [];
      const info = isObj(body.OrdersViaInternetInfo) ? body.OrdersViaInternetInfo : {};
      if (Number(info.PaymentTypeCode) === 3) return [];
      const payments = Array.isArray(body.Payments) ? body.Payments.filter(isObj) : [];
      if (payments.length === 0) return ["an internet sales order without Payments: V3 keeps it unpaid"];
      return payments.some(
        (p) => typeof p.Amount === "number" && p.Amount > 0 && /^\d+$/.test(String(p.PaymentType ?? "")),
      )
        ? []
        : ["Payments carries no PaymentType with a paid Amount"];
    },
  },
  {
    id: "nebim.session-credentials-url",
    kind: "required-sequence",
    side: "cookieless-redirect",
    description:
      "In session mode the Connect that carries the credentials goes to the session's own URL (/(S(id))/IntegratorService/Connect): IIS redirects a bare URL and the body is lost.",
    sources: [
      {
        kind: "vendor-doc",
        ref: "cemyeten/nebim-v3-integrator-docs@ced78ec9:docs/01-1-connect.md (Session ile Connect)",
        says: "the session-mode Connect example is sent to http://localhost:801/(S(uzr4v2hsttmweooenvsqq5je))/IntegratorService/Connect and answers that SessionID",
      },
      {
        kind: "public-code",
        ref: "enesorak/Pronet.Nebim.Integration NebimApiService.cs (public code id 652149060)",
        says: "step 1: GET the service with redirects off and keep the 302 Location (the URL with the session); step 2: POST Connect to that session URL",
      },
    ],
    check(r) {
      const parsed = parseNebimPath(r.path);
      if (parsed?.command !== "Connect" || parsed.session || !hasCredentials(r.body)) return [];
      return [
        "Connect carries the credentials to a URL without the session: IIS answers 302 to /(S(id))/… and the body is lost",
      ];
    },
  },
];
