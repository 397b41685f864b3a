/**
 * Trendyol e-Faturam as an `EInvoiceProvider`. It takes its own JSON (amounts in kuruş), not UBL: the
 * document goes as `SendInvoiceInput.document`, built by the invoice flow from the same computation as the
 * UBL. Sign-in with the portal user's e-mail and password; the JWT comes back in the `x-access-token`
 * answer header and goes out in the same header; the company and user ids come from its claims.
 * Shapes: judge/requests.json (third-party sources named there); what is inferred: VERIFIED.md.
 */

import type { ConnectionInfo, ConnectorContext, ConnectorDescriptor, Credentials } from "../sdk/connector";
import {
  type EInvoiceDocument,
  type EInvoiceInternetSale,
  type EInvoiceProvider,
  type EInvoiceStatus,
  type EInvoiceStatusInfo,
  type EInvoiceUser,
  ettnNotNamed,
  type SendInvoiceInput,
  type SentInvoice,
} from "../sdk/einvoice";
import { ConnectorError, reasonForHttpStatus } from "../sdk/errors";
import type { HttpClient, HttpRequest, HttpResponse } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { TRENDYOL_EFATURAM_LIVE, trendyolEFaturamDescriptor } from "./descriptor";
import { TRENDYOL_ITEM_NAME_MAX } from "./judge/rules";

/** "Fatura Statü Kodları" reduced to ours (source: the third-party driver's table, VERIFIED.md). */
export const TRENDYOL_STATUS: Record<string, EInvoiceStatus> = {
  "10": "queued",
  "20": "queued",
  "29": "error",
  "30": "queued",
  "40": "sent",
  "50": "sent",
  "100": "sent",
  "105": "rejected",
  "200": "sent",
  "205": "approved",
  "305": "cancelled",
  "405": "error",
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** The claims of a JWT (no signature check: the token is the service's own, we only read our ids). */
export function jwtClaims(token: string): Obj {
  const part = token.split(".")[1];
  if (!part) return {};
  try {
    const claims = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return isObj(claims) ? claims : {};
  } catch {
    return {};
  }
}

/** The session's ids: company = first key of `privs` (third-party client), user = `userId` (inferred). */
export function sessionIds(token: string): { companyId?: number; userId?: number } {
  const claims = jwtClaims(token);
  const privs = isObj(claims.privs) ? Object.keys(claims.privs) : [];
  const companyId = Number(privs[0] ?? claims.companyId);
  const userId = Number(claims.userId ?? claims.sub);
  return {
    ...(Number.isSafeInteger(companyId) ? { companyId } : {}),
    ...(Number.isSafeInteger(userId) ? { userId } : {}),
  };
}

/** An RFC 7807 problem answer as a ConnectorError that keeps the problem type (e.g. `InvoiceUuidCantBeUsedProblem`). */
function classifyProblem(system: string, operation: string) {
  return (res: HttpResponse): ConnectorError | undefined => {
    const reason = reasonForHttpStatus(res.status);
    if (!reason || !isObj(res.json)) return undefined;
    const p = res.json;
    const type = str(p.type);
    const detail = str(p.detail) ?? str(p.title) ?? str(p.message);
    const errors = Array.isArray(p.errors)
      ? p.errors
          .map((e) => (isObj(e) ? `${str(e.field) ?? ""} ${str(e.defaultMessage) ?? ""}`.trim() : ""))
          .join("; ")
      : "";
    return new ConnectorError(`${system} ${operation}: HTTP ${res.status}${type ? ` ${type}` : ""}`, {
      reason,
      httpStatus: res.status,
      systemCode: type?.split("/").pop(),
      systemMessage: [detail, errors].filter(Boolean).join(" — ") || undefined,
      system,
      operation,
    });
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Our document as the gateway's create body (createOutgoingEInvoice / earchive share it). */
export function trendyolInvoiceBody(
  input: SendInvoiceInput & { document: EInvoiceDocument },
  ids: { companyId: number; userId: number },
): Obj {
  const d = input.document;
  const lines = d.lines.map((l) => ({
    unitCode: "C62",
    quantity: l.qty,
    // The gateway's lengths (judge/rules.ts, requests.json): a longer text would refuse the whole invoice.
    itemName: l.name.slice(0, TRENDYOL_ITEM_NAME_MAX),
    unitPriceAmount: l.unitPriceK,
    totalDiscountAmount: l.discountK,
    taxableAmount: l.netK,
    taxPercent: l.vatRate,
    taxName: "KDV",
    taxAmount: l.taxK,
    totalAmount: l.netK + l.taxK,
    totalTax: {
      totalTaxAmount: l.taxK,
      subTotalTaxes: [
        { taxableAmount: l.netK, taxAmount: l.taxK, taxType: "KDV", percent: l.vatRate, name: "KDV" },
      ],
    },
  }));
  const rates = [...new Set(d.lines.map((l) => l.vatRate))].sort((a, b) => a - b);
  const net = sum(d.lines.map((l) => l.netK));
  const tax = sum(d.lines.map((l) => l.taxK));
  const b = d.buyer;
  const recipient: Obj = { taxId: b.taxId, countryCode: "TR", city: b.city, name: b.name.slice(0, 127) };
  if (b.surname && b.surname.length >= 2) recipient.surname = b.surname.slice(0, 255);
  if (b.district) recipient.district = b.district;
  if (b.address && b.address.length >= 2) recipient.address = b.address.slice(0, 255);
  if (b.postalCode && /^\d{5}$/.test(b.postalCode)) recipient.postalCode = b.postalCode;
  const phone = b.phone?.replace(/[\s()-]/g, "");
  if (phone && /^\+?[0-9]{7,15}$/.test(phone)) recipient.phone = phone;
  if (b.email) recipient.email = b.email;
  if (b.taxOffice && b.taxOffice.length >= 2) recipient.taxOffice = b.taxOffice;
  const currency = d.currency.toUpperCase();
  return {
    // inferred: a company's own user signs in, as on the portal; `PARTNER` is for marketplace integrators.
    source: "PORTAL",
    companyId: ids.companyId,
    userId: ids.userId,
    // Our ledger gives the gap-free number; the gateway must not take one from its own series.
    autoInvoiceId: false,
    ...(input.localId ? { localReferenceId: input.localId.slice(0, 127) } : {}),
    issuedAt: `${d.issueDate}T${d.issueTime ?? "00:00:00"}+03:00`,
    recipientInfo: recipient,
    currencyInfo:
      currency === "TRY"
        ? { currency }
        : {
            currency,
            hasExchange: true,
            calculationRate: d.exchangeRate ?? 0,
            sourceCurrency: currency,
            targetCurrency: "TRY",
          },
    invoiceInfo: {
      invoiceType: d.profile,
      invoiceTypeCode: d.type,
      invoiceId: d.number,
      invoiceUuid: input.ettn,
    },
    invoiceLines: lines,
    totalTax: {
      totalTaxAmount: tax,
      subTotalTaxes: rates.map((rate) => {
        const at = d.lines.filter((l) => l.vatRate === rate);
        return {
          taxableAmount: sum(at.map((l) => l.netK)),
          taxAmount: sum(at.map((l) => l.taxK)),
          taxType: "KDV",
          percent: rate,
          name: "KDV",
        };
      }),
    },
    // The samples' convention (GİB's TicariFaturaOrnegi, izibiz): line extension before discounts, minus
    // the allowance total, is the tax-exclusive amount.
    invoiceTotal: {
      lineExtensionAmount: net + sum(d.lines.map((l) => l.discountK)),
      taxExclusiveAmount: net,
      taxInclusiveAmount: net + tax,
      payableAmount: net + tax,
      allowanceTotalAmount: sum(d.lines.map((l) => l.discountK)),
    },
    ...internetSaleFields(d),
    ...(d.returnOf
      ? {
          billingReference: {
            invoiceId: d.returnOf.number,
            issueDate: d.returnOf.issueDate,
            typeCode: "IADE",
          },
        }
      : {}),
  };
}

/** GİB's e-Arşiv payment words as the gateway's `paymentMeans` (vendor page copy's enum). */
const PAYMENT_MEANS: Record<EInvoiceInternetSale["payment"]["means"], string> = {
  "KREDIKARTI/BANKAKARTI": "CREDIT_CARD",
  "EFT/HAVALE": "EFT",
  KAPIDAODEME: "ON_DELIVERY",
  ODEMEARACISI: "MEDIATOR",
  DIGER: "OTHER",
};

/**
 * An internet sale's e-Arşiv: `paymentInfo` (purchaseUrl = the seller's web address, paymentMeans,
 * paymentType = GİB's word, paymentDate, paymentAgentName) and `deliveryInfo` (carrierTaxId, carrierName,
 * sentAt), required since 1 July 2024 (partner integration plan; a live integration sends both).
 */
export function internetSaleFields(d: EInvoiceDocument): Obj {
  const sale = d.internetSale;
  if (d.profile !== "EARSIVFATURA" || !sale) return {};
  const delivery = sale.delivery;
  return {
    paymentInfo: {
      purchaseUrl: sale.website.slice(0, 255),
      paymentMeans: PAYMENT_MEANS[sale.payment.means],
      paymentType: sale.payment.means,
      paymentDate: `${sale.payment.date}T00:00:00+03:00`,
      ...(sale.payment.agent ? { paymentAgentName: sale.payment.agent.slice(0, 127) } : {}),
    },
    ...(delivery
      ? {
          deliveryInfo: {
            ...(delivery.carrierTaxNumber ? { carrierTaxId: delivery.carrierTaxNumber } : {}),
            ...(delivery.carrier ? { carrierName: delivery.carrier.slice(0, 127) } : {}),
            ...(delivery.dispatchDate ? { sentAt: delivery.dispatchDate } : {}),
          },
        }
      : {}),
  };
}

export class TrendyolEFaturamProvider implements EInvoiceProvider {
  readonly http: HttpClient;
  private readonly cfg: Record<string, string>;
  private session?: Promise<{ token: string; companyId: number; userId: number }>;

  constructor(
    credentials: Credentials,
    ctx: ConnectorContext,
    readonly descriptor: ConnectorDescriptor = trendyolEFaturamDescriptor,
  ) {
    this.cfg = requireCredentials(descriptor.system, descriptor.credentials, credentials);
    this.http = createConnectorHttp(descriptor, ctx, {
      baseUrl: (this.cfg.apiUrl || TRENDYOL_EFATURAM_LIVE).replace(/\/+$/, ""),
      secrets: [this.cfg.password ?? ""],
    });
  }

  private signIn(): Promise<{ token: string; companyId: number; userId: number }> {
    this.session ??= (async () => {
      const res = await this.http.request({
        method: "POST",
        url: "/api/auth/signin",
        operation: "signin",
        kind: "read",
        idempotent: true,
        body: { json: { email: this.cfg.email, password: this.cfg.password } },
        classify: classifyProblem(this.descriptor.system, "signin"),
      });
      const token = res.headers.get("x-access-token")?.trim();
      if (!token) {
        throw new ConnectorError("trendyol-efaturam signin: no x-access-token in the answer", {
          reason: "bad_response",
          system: this.descriptor.system,
          operation: "signin",
        });
      }
      this.http.addSecret(token);
      const { companyId, userId } = sessionIds(token);
      if (companyId === undefined || userId === undefined) {
        throw new ConnectorError("trendyol-efaturam signin: the token names no company or user", {
          reason: "bad_response",
          system: this.descriptor.system,
          operation: "signin",
        });
      }
      return { token, companyId, userId };
    })();
    // A failed sign-in is not kept: the next call tries again.
    this.session.catch(() => {
      this.session = undefined;
    });
    return this.session;
  }

  private async call(
    req: Omit<HttpRequest, "headers" | "onAuthFailure" | "classify">,
  ): Promise<HttpResponse> {
    return this.http.request({
      ...req,
      classify: req.binary ? undefined : classifyProblem(this.descriptor.system, req.operation),
      headers: async () => ({ "x-access-token": (await this.signIn()).token }),
      // The token lasts 24 h; a refused one is dropped and the call is sent once more with a new one.
      onAuthFailure: async () => {
        this.session = undefined;
        return true;
      },
    });
  }

  async testConnection(): Promise<ConnectionInfo> {
    const { companyId, userId } = await this.signIn();
    return {
      ok: true,
      system: this.descriptor.system,
      description: `Trendyol e-Faturam: firma ${companyId}, kullanıcı ${this.cfg.email}`,
      details: { apiUrl: this.cfg.apiUrl, companyId, userId },
    };
  }

  /** `GET /api/invoice/taxpayers/:taxId`: a non-empty list with an INVOICE alias = registered; 404 = not. */
  async isEInvoiceUser(vkn: string): Promise<boolean> {
    try {
      const res = await this.call({
        method: "GET",
        url: `/api/invoice/taxpayers/${encodeURIComponent(vkn)}`,
        operation: "taxpayers",
        kind: "read",
      });
      const rows = Array.isArray(res.json) ? res.json : [];
      return rows.some((r) => isObj(r) && (r.aliasType === undefined || r.aliasType === "INVOICE"));
    } catch (e) {
      if (e instanceof ConnectorError && e.reason === "not_found") return false;
      throw e;
    }
  }

  /** The gateway has no list of registered users (only the per-number lookup above). */
  async listEInvoiceUsers(): Promise<EInvoiceUser[]> {
    throw new ConnectorError("trendyol-efaturam: no list of e-Fatura users; ask per tax number", {
      reason: "unsupported",
      system: this.descriptor.system,
      operation: "listEInvoiceUsers",
    });
  }

  async sendInvoice(input: SendInvoiceInput): Promise<SentInvoice> {
    const operation =
      input.document?.profile === "EARSIVFATURA" ? "createEArchive" : "createOutgoingEInvoice";
    if (!input.document) {
      throw new ConnectorError("trendyol-efaturam takes its own JSON: the invoice data is missing", {
        reason: "config",
        system: this.descriptor.system,
        operation,
      });
    }
    if (input.draft) {
      throw new ConnectorError("trendyol-efaturam: no draft step in its API (the 3P client shows none)", {
        reason: "unsupported",
        merchantMessage:
          "Trendyol e-Faturam taslak kaydetmeyi desteklemiyor: Fatura Ayarları'nda onay adımını kapatın.",
        system: this.descriptor.system,
        operation,
      });
    }
    const ids = await this.signIn();
    const res = await this.call({
      method: "POST",
      url:
        operation === "createEArchive"
          ? "/api/invoice/documents/earchive"
          : "/api/invoice/documents/outgoing-einvoice",
      operation,
      kind: "write",
      body: { json: trendyolInvoiceBody({ ...input, document: input.document }, ids) },
    });
    const answer = isObj(res.json) ? res.json : {};
    if (str(answer.invoiceUuid)?.toLowerCase() !== input.ettn.toLowerCase()) {
      throw ettnNotNamed(this.descriptor.system, operation, input.ettn);
    }
    return {
      ettn: input.ettn,
      number: str(answer.invoiceId),
      status: TRENDYOL_STATUS[str(answer.status) ?? ""] ?? "queued",
      existed: false,
    };
  }

  /** One status call per ETTN: e-Arşiv first, then e-Fatura (the ETTN does not say which it is). */
  async queryStatus(ettns: string[]): Promise<EInvoiceStatusInfo[]> {
    const out: EInvoiceStatusInfo[] = [];
    for (const ettn of ettns) {
      let found: EInvoiceStatusInfo = { ettn, found: false };
      for (const kind of ["earchive", "outgoing-einvoice"] as const) {
        try {
          const res = await this.call({
            method: "GET",
            url: `/api/invoice/documents/${kind}/status/${encodeURIComponent(ettn)}`,
            operation: `${kind}Status`,
            kind: "read",
          });
          const a = isObj(res.json) ? res.json : {};
          const code = str(a.status) ?? "";
          found = {
            ettn,
            found: true,
            status: TRENDYOL_STATUS[code] ?? "queued",
            providerStatus: code,
            ...((str(a.gibStatus) ?? str(a.gibStatusCode))
              ? { message: str(a.gibStatus) ?? str(a.gibStatusCode) }
              : {}),
          };
          break;
        } catch (e) {
          if (e instanceof ConnectorError && e.reason === "not_found") continue;
          throw e;
        }
      }
      out.push(found);
    }
    return out;
  }

  /** `POST /api/invoice/documents/download` gives a signed link; the PDF is read from it. */
  async getPdf(ettn: string): Promise<Uint8Array> {
    const { companyId } = await this.signIn();
    let link: string | undefined;
    // EINVOICE for an e-Fatura: the value code run against the gateway sends (judge/rules.ts).
    for (const documentType of ["EARCHIVE", "EINVOICE"] as const) {
      try {
        const res = await this.call({
          method: "POST",
          url: "/api/invoice/documents/download",
          operation: "download",
          kind: "read",
          idempotent: true,
          body: { json: { companyId, documentType, fileExtension: "pdf", invoiceUuid: ettn } },
        });
        const a = res.json;
        link = typeof a === "string" ? a : isObj(a) ? (str(a.url) ?? str(a.signedUrl)) : undefined;
        break;
      } catch (e) {
        if (e instanceof ConnectorError && e.reason === "not_found") continue;
        throw e;
      }
    }
    if (!link) {
      throw new ConnectorError(`trendyol-efaturam download: no link for ${ettn}`, {
        reason: "not_found",
        system: this.descriptor.system,
        operation: "download",
      });
    }
    const file = await this.http.request({
      method: "GET",
      url: link,
      operation: "downloadFile",
      kind: "read",
      binary: true,
    });
    return file.bytes ?? new Uint8Array();
  }

  /** `POST /api/invoice/documents/earchive/cancel`; 409 = the document can no longer be cancelled. */
  async cancelEArchive(ettn: string, _reason: string): Promise<void> {
    const { companyId } = await this.signIn();
    await this.call({
      method: "POST",
      url: "/api/invoice/documents/earchive/cancel",
      operation: "cancelEArchive",
      kind: "write",
      idempotent: true,
      body: { json: { invoiceUuid: ettn, companyId } },
    });
  }
}

export const createTrendyolEFaturamProvider = (credentials: Credentials, ctx: ConnectorContext) =>
  new TrendyolEFaturamProvider(credentials, ctx);
