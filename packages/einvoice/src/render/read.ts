import { create } from "xmlbuilder2";

/**
 * What a person reads on a UBL-TR invoice, taken from the XML itself (any integrator's document, not only
 * ours): namespace-aware, so other prefixes than `cac`/`cbc` read the same. Amounts stay decimal strings
 * as written; formatting is the renderer's job.
 */

const CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const INV = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";

interface El {
  nodeType: number;
  namespaceURI: string | null;
  localName: string | null;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
}

export interface Money {
  value: string;
  currency: string;
}

export interface PartyView {
  name: string;
  ids: { scheme: string; value: string }[];
  taxOffice?: string;
  address: string[];
  phone?: string;
  email?: string;
  website?: string;
}

export interface LineView {
  id: string;
  name: string;
  quantity: string;
  unitCode: string;
  price?: Money;
  allowance?: { amount: Money; base?: Money; reason?: string };
  vatPercent?: string;
  vatAmount?: Money;
  lineExtension: Money;
}

export interface InvoiceView {
  customizationId: string;
  profile: string;
  typeCode: string;
  number: string;
  uuid: string;
  issueDate: string;
  issueTime?: string;
  currency: string;
  exchangeRate?: { rate: string; date?: string; source: string; target: string };
  notes: string[];
  order?: { id: string; date?: string };
  returnOf: { id: string; date?: string }[];
  sendingType?: string;
  supplier: PartyView;
  customer: PartyView;
  payment?: { means?: string; code?: string; date?: string };
  delivery?: { carrier?: string; carrierId?: string; dispatchDate?: string; tracking?: string };
  taxes: { name: string; percent: string; taxable: Money; amount: Money; exemption?: string }[];
  totals: {
    lineExtension: Money;
    taxExclusive: Money;
    taxInclusive: Money;
    allowance?: Money;
    payable: Money;
  };
  lines: LineView[];
}

function kids(el: El | undefined, ns: string, name: string): El[] {
  if (!el) return [];
  return Array.from(el.childNodes).filter(
    (c) => c.nodeType === 1 && c.namespaceURI === ns && c.localName === name,
  );
}
/** Follows a path of `cac:`/`cbc:` steps, first match at each step. */
function at(el: El | undefined, path: string): El | undefined {
  let cur = el;
  for (const step of path.split("/")) {
    const [prefix, name] = step.split(":") as [string, string];
    cur = kids(cur, prefix === "cac" ? CAC : CBC, name)[0];
    if (!cur) return undefined;
  }
  return cur;
}
function all(el: El | undefined, path: string): El[] {
  const steps = path.split("/");
  const last = steps.pop() ?? "";
  const parent = steps.length ? at(el, steps.join("/")) : el;
  const [prefix, name] = last.split(":") as [string, string];
  return kids(parent, prefix === "cac" ? CAC : CBC, name);
}
function text(el: El | undefined, path?: string): string | undefined {
  const node = path ? at(el, path) : el;
  const value = node?.textContent?.trim();
  return value ? value : undefined;
}
function money(el: El | undefined, path: string): Money | undefined {
  const node = at(el, path);
  const value = text(node);
  return node && value !== undefined ? { value, currency: node.getAttribute("currencyID") ?? "" } : undefined;
}
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`UBL faturasında ${what} yok`);
  return value;
}

function party(el: El | undefined): PartyView {
  const person = at(el, "cac:Person");
  const personName = [
    text(person, "cbc:Title"),
    text(person, "cbc:FirstName"),
    text(person, "cbc:MiddleName"),
  ]
    .concat(text(person, "cbc:FamilyName"))
    .filter(Boolean)
    .join(" ");
  const address = at(el, "cac:PostalAddress");
  const street = [
    text(address, "cbc:StreetName"),
    text(address, "cbc:BuildingName"),
    text(address, "cbc:BuildingNumber") ? `No:${text(address, "cbc:BuildingNumber")}` : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  const town = [
    text(address, "cbc:PostalZone"),
    [text(address, "cbc:CitySubdivisionName"), text(address, "cbc:CityName")].filter(Boolean).join("/ "),
  ]
    .filter(Boolean)
    .join(" ");
  const phone = text(el, "cac:Contact/cbc:Telephone");
  const email = text(el, "cac:Contact/cbc:ElectronicMail");
  const website = text(el, "cbc:WebsiteURI");
  const taxOffice = text(el, "cac:PartyTaxScheme/cac:TaxScheme/cbc:Name");
  return {
    name: text(el, "cac:PartyName/cbc:Name") ?? personName,
    ids: all(el, "cac:PartyIdentification").flatMap((p) => {
      const id = at(p, "cbc:ID");
      const value = text(id);
      return value ? [{ scheme: id?.getAttribute("schemeID") ?? "", value }] : [];
    }),
    address: [street, town, text(address, "cac:Country/cbc:Name")].filter((s): s is string => !!s),
    ...(taxOffice ? { taxOffice } : {}),
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
    ...(website ? { website } : {}),
  };
}

export function readInvoice(xml: string): InvoiceView {
  const root = create(xml).root().node as unknown as El;
  if (root.namespaceURI !== INV || root.localName !== "Invoice")
    throw new Error("UBL faturası değil (kök eleman Invoice olmalı)");
  const currency = need(text(root, "cbc:DocumentCurrencyCode"), "para birimi");
  const rateEl = at(root, "cac:PricingExchangeRate");
  const rate = text(rateEl, "cbc:CalculationRate");
  const rateDate = text(rateEl, "cbc:Date");
  const sending = all(root, "cac:AdditionalDocumentReference").find(
    (r) => text(r, "cbc:DocumentTypeCode") === "SendingType",
  );
  const meansEl = at(root, "cac:PaymentMeans");
  const deliveryEl = at(root, "cac:Delivery");
  const carrier = at(deliveryEl, "cac:CarrierParty");
  const totalsEl = at(root, "cac:LegalMonetaryTotal");
  const allowance = money(totalsEl, "cbc:AllowanceTotalAmount");
  const orderRef = at(root, "cac:OrderReference");
  const payment = meansEl
    ? {
        ...(text(meansEl, "cbc:InstructionNote") ? { means: text(meansEl, "cbc:InstructionNote") } : {}),
        ...(text(meansEl, "cbc:PaymentMeansCode") ? { code: text(meansEl, "cbc:PaymentMeansCode") } : {}),
        ...(text(meansEl, "cbc:PaymentDueDate") ? { date: text(meansEl, "cbc:PaymentDueDate") } : {}),
      }
    : undefined;
  const delivery = deliveryEl
    ? Object.fromEntries(
        Object.entries({
          carrier: carrier ? party(carrier).name || undefined : undefined,
          carrierId: text(carrier, "cac:PartyIdentification/cbc:ID"),
          dispatchDate: text(deliveryEl, "cac:Despatch/cbc:ActualDespatchDate"),
          tracking: text(deliveryEl, "cbc:TrackingID"),
        }).filter(([, v]) => v !== undefined),
      )
    : undefined;
  const notes = all(root, "cbc:Note")
    .map((n) => text(n))
    .filter((n): n is string => !!n);
  const issueTime = text(root, "cbc:IssueTime");
  return {
    customizationId: text(root, "cbc:CustomizationID") ?? "",
    profile: need(text(root, "cbc:ProfileID"), "senaryo (ProfileID)"),
    typeCode: need(text(root, "cbc:InvoiceTypeCode"), "fatura tipi"),
    number: need(text(root, "cbc:ID"), "fatura numarası"),
    uuid: need(text(root, "cbc:UUID"), "ETTN"),
    issueDate: need(text(root, "cbc:IssueDate"), "fatura tarihi"),
    ...(issueTime ? { issueTime } : {}),
    currency,
    ...(rate
      ? {
          exchangeRate: {
            rate,
            ...(rateDate ? { date: rateDate } : {}),
            source: text(rateEl, "cbc:SourceCurrencyCode") ?? currency,
            target: text(rateEl, "cbc:TargetCurrencyCode") ?? "TRY",
          },
        }
      : {}),
    notes,
    ...(orderRef
      ? {
          order: {
            id: text(orderRef, "cbc:ID") ?? "",
            ...(text(orderRef, "cbc:IssueDate") ? { date: text(orderRef, "cbc:IssueDate") } : {}),
          },
        }
      : {}),
    returnOf: all(root, "cac:BillingReference").flatMap((b) => {
      const ref = at(b, "cac:InvoiceDocumentReference");
      const id = text(ref, "cbc:ID");
      return id ? [{ id, ...(text(ref, "cbc:IssueDate") ? { date: text(ref, "cbc:IssueDate") } : {}) }] : [];
    }),
    ...(sending ? { sendingType: text(sending, "cbc:DocumentType") ?? text(sending, "cbc:ID") } : {}),
    supplier: party(at(root, "cac:AccountingSupplierParty/cac:Party")),
    customer: party(at(root, "cac:AccountingCustomerParty/cac:Party")),
    ...(payment ? { payment } : {}),
    ...(delivery ? { delivery } : {}),
    taxes: all(root, "cac:TaxTotal").flatMap((t) =>
      all(t, "cac:TaxSubtotal").map((s) => {
        const category = at(s, "cac:TaxCategory");
        const exemption = [
          text(category, "cbc:TaxExemptionReasonCode"),
          text(category, "cbc:TaxExemptionReason"),
        ]
          .filter(Boolean)
          .join(" - ");
        return {
          name:
            text(category, "cac:TaxScheme/cbc:Name") ?? text(category, "cac:TaxScheme/cbc:TaxTypeCode") ?? "",
          percent: text(s, "cbc:Percent") ?? "",
          taxable: money(s, "cbc:TaxableAmount") ?? { value: "0", currency },
          amount: money(s, "cbc:TaxAmount") ?? { value: "0", currency },
          ...(exemption ? { exemption } : {}),
        };
      }),
    ),
    totals: {
      lineExtension: need(money(totalsEl, "cbc:LineExtensionAmount"), "mal hizmet toplamı"),
      taxExclusive: need(money(totalsEl, "cbc:TaxExclusiveAmount"), "vergi hariç tutar"),
      taxInclusive: need(money(totalsEl, "cbc:TaxInclusiveAmount"), "vergiler dahil tutar"),
      ...(allowance ? { allowance } : {}),
      payable: need(money(totalsEl, "cbc:PayableAmount"), "ödenecek tutar"),
    },
    lines: all(root, "cac:InvoiceLine").map((l) => {
      const qty = at(l, "cbc:InvoicedQuantity");
      const ac = all(l, "cac:AllowanceCharge").find((a) => text(a, "cbc:ChargeIndicator") === "false");
      const price = money(l, "cac:Price/cbc:PriceAmount");
      const vatSub = all(l, "cac:TaxTotal/cac:TaxSubtotal").find(
        (s) => text(s, "cac:TaxCategory/cac:TaxScheme/cbc:TaxTypeCode") === "0015",
      );
      const vatPercent = text(vatSub, "cbc:Percent");
      const vatAmount = money(vatSub, "cbc:TaxAmount");
      const allowanceAmount = money(ac, "cbc:Amount");
      const base = money(ac, "cbc:BaseAmount");
      const reason = text(ac, "cbc:AllowanceChargeReason");
      return {
        id: text(l, "cbc:ID") ?? "",
        name: text(l, "cac:Item/cbc:Name") ?? "",
        quantity: text(qty) ?? "",
        unitCode: qty?.getAttribute("unitCode") ?? "",
        ...(price ? { price } : {}),
        ...(allowanceAmount
          ? {
              allowance: {
                amount: allowanceAmount,
                ...(base ? { base } : {}),
                ...(reason ? { reason } : {}),
              },
            }
          : {}),
        ...(vatPercent ? { vatPercent } : {}),
        ...(vatAmount ? { vatAmount } : {}),
        lineExtension: money(l, "cbc:LineExtensionAmount") ?? { value: "0", currency },
      };
    }),
  };
}
