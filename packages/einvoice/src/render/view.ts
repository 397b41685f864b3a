import type { InvoiceView, Money } from "./read.ts";

/**
 * The printed form shared by the HTML and the PDF: the fields, labels and number formats of GİB's
 * standard display (`general.xslt` of the UBL-TR 1.2.1 package): amounts as `###.##0,00` with `,` for
 * decimals and `.` for thousands, prices up to 8 decimals, dates `GG-AA-YYYY`, "TL" for TRY.
 * The labels are the document's own (a Turkish tax document reads the same for every viewer), so they
 * live here and not in the panel's message catalogues.
 */

export const LABELS = {
  earsiv: "e-Arşiv Fatura",
  efatura: "e-FATURA",
  buyer: "SAYIN",
  customization: "Özelleştirme No:",
  scenario: "Senaryo:",
  type: "Fatura Tipi:",
  number: "Fatura No:",
  date: "Fatura Tarihi:",
  ettn: "ETTN:",
  order: "Sipariş No:",
  orderDate: "Sipariş Tarihi:",
  returnOf: "İade Edilen Fatura:",
  sendingType: "Gönderim Şekli:",
  taxOffice: "Vergi Dairesi:",
  phone: "Tel:",
  email: "E-Posta:",
  website: "Web Sitesi:",
  columns: [
    "Sıra No",
    "Mal Hizmet",
    "Miktar",
    "Birim Fiyat",
    "İskonto Oranı",
    "İskonto Tutarı",
    "KDV Oranı",
    "KDV Tutarı",
    "Mal Hizmet Tutarı",
  ],
  lineExtension: "Mal Hizmet Toplam Tutarı",
  allowance: "Toplam İskonto",
  taxExclusive: "Vergi Hariç Tutar",
  tax: (name: string, percent: string) => `Hesaplanan ${name}(%${percent})`,
  taxInclusive: "Vergiler Dahil Toplam Tutar",
  payable: "Ödenecek Tutar",
  /** GİB's labels of the TL equivalents (the payable one has no blank before "(TL)"). */
  inTry: (label: string) => (label === "Ödenecek Tutar" ? `${label}(TL)` : `${label} (TL)`),
  exchangeRate: "Döviz Kuru:",
  exemption: "Vergi İstisna Muafiyet Sebebi:",
  internetSale: "İnternet Satış Bilgileri",
  paymentMeans: "Ödeme Şekli:",
  paymentDate: "Ödeme Tarihi:",
  carrier: "Taşıyıcı:",
  dispatchDate: "Gönderim Tarihi:",
  tracking: "Kargo Takip No:",
  notes: "Notlar",
} as const;

/** UN/ECE rec. 20 codes GİB's display names (the ones our documents and the samples use). */
const UNITS: Record<string, string> = {
  C62: "Adet",
  NIU: "Adet",
  KGM: "kg",
  GRM: "g",
  LTR: "lt",
  MTR: "m",
  MTK: "m2",
  MTQ: "m3",
  KWH: "KWH",
  PA: "Paket",
  BX: "Kutu",
  SET: "Set",
  PR: "Çift",
  DZN: "Düzine",
  HUR: "Saat",
  DAY: "Gün",
  MON: "Ay",
  ANN: "Yıl",
};

function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

/** A decimal string as GİB prints it: at least `min`, at most `max` decimals, half-up, `1.234,5`. */
export function formatDecimal(value: string, min = 2, max = 2): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) return value;
  // Decimal arithmetic on the digits (binary floats round 1234567.005 down).
  const frac = (m[3] ?? "").padEnd(max + 1, "0");
  let scaled = BigInt(`${m[2] || "0"}${frac.slice(0, max)}`);
  if (Number(frac[max]) >= 5) scaled += 1n;
  const digits = scaled.toString().padStart(max + 1, "0");
  const int = digits.slice(0, digits.length - max);
  let decimals = digits.slice(digits.length - max);
  while (decimals.length > min && decimals.endsWith("0")) decimals = decimals.slice(0, -1);
  const sign = m[1] && scaled !== 0n ? "-" : "";
  return `${sign}${group(int)}${decimals ? `,${decimals}` : ""}`;
}

export const currencyLabel = (code: string): string => (code === "TRY" ? "TL" : code);
export const formatMoney = (m: Money): string => `${formatDecimal(m.value)} ${currencyLabel(m.currency)}`;
export const formatPrice = (m: Money): string =>
  `${formatDecimal(m.value, 2, 8)} ${currencyLabel(m.currency)}`;
export const formatQuantity = (quantity: string, unitCode: string): string =>
  `${formatDecimal(quantity, 0, 4)} ${UNITS[unitCode] ?? unitCode}`;
export const formatPercent = (percent: string): string => `%${formatDecimal(percent)}`;

/** `2026-11-20` → `20-11-2026` (GİB's display). */
export function formatDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : date;
}
export function formatDateTime(date: string, time?: string): string {
  return time ? `${formatDate(date)} ${time.slice(0, 5)}` : formatDate(date);
}

/**
 * An amount in TL at the document's rate, for foreign-currency invoices (GİB prints both): the product in
 * binary floating point rounded on its exact value, as general.xslt's `format-number(. * rate)` does
 * (83,33 × 34,5 prints 2.874,88 there, not ,89).
 */
export function inTry(m: Money, rate: string): Money {
  return { value: (Number(m.value) * Number(rate)).toFixed(2), currency: "TRY" };
}

export interface PrintedRow {
  label: string;
  value: string;
}

/** The rows of the header box, the totals and the internet-sale box, in GİB's order. */
export function printedForm(v: InvoiceView) {
  const header: PrintedRow[] = [
    { label: LABELS.customization, value: v.customizationId },
    { label: LABELS.scenario, value: v.profile },
    { label: LABELS.type, value: v.typeCode },
    { label: LABELS.number, value: v.number },
    { label: LABELS.date, value: formatDateTime(v.issueDate, v.issueTime) },
    ...(v.order ? [{ label: LABELS.order, value: v.order.id }] : []),
    ...(v.order?.date ? [{ label: LABELS.orderDate, value: formatDate(v.order.date) }] : []),
    ...v.returnOf.map((r) => ({
      label: LABELS.returnOf,
      value: r.date ? `${r.id} (${formatDate(r.date)})` : r.id,
    })),
    ...(v.sendingType ? [{ label: LABELS.sendingType, value: v.sendingType }] : []),
    ...(v.exchangeRate
      ? [
          {
            label: LABELS.exchangeRate,
            value: `1 ${v.exchangeRate.source} = ${formatDecimal(v.exchangeRate.rate, 2, 6)} ${currencyLabel(v.exchangeRate.target)}${v.exchangeRate.date ? ` (${formatDate(v.exchangeRate.date)})` : ""}`,
          },
        ]
      : []),
  ];
  const rate = v.exchangeRate?.rate;
  const withTry = (label: string, m: Money): PrintedRow[] =>
    rate && m.currency !== "TRY"
      ? [
          { label, value: formatMoney(m) },
          { label: LABELS.inTry(label), value: formatMoney(inTry(m, rate)) },
        ]
      : [{ label, value: formatMoney(m) }];
  const totals: PrintedRow[] = [
    ...withTry(LABELS.lineExtension, v.totals.lineExtension),
    ...(v.totals.allowance ? withTry(LABELS.allowance, v.totals.allowance) : []),
    ...(v.totals.allowance && Number(v.totals.allowance.value) !== 0
      ? [{ label: LABELS.taxExclusive, value: formatMoney(v.totals.taxExclusive) }]
      : []),
    ...v.taxes.map((t) => ({
      label: LABELS.tax(t.name, formatDecimal(t.percent)),
      value: formatMoney(t.amount),
    })),
    ...withTry(LABELS.taxInclusive, v.totals.taxInclusive),
    ...withTry(LABELS.payable, v.totals.payable),
  ];
  const internetSale: PrintedRow[] = [
    ...(v.supplier.website && v.profile === "EARSIVFATURA"
      ? [{ label: LABELS.website, value: v.supplier.website }]
      : []),
    ...(v.payment?.means ? [{ label: LABELS.paymentMeans, value: v.payment.means }] : []),
    ...(v.payment?.date ? [{ label: LABELS.paymentDate, value: formatDate(v.payment.date) }] : []),
    ...(v.delivery?.carrier
      ? [
          {
            label: LABELS.carrier,
            value: v.delivery.carrierId
              ? `${v.delivery.carrier} (${v.delivery.carrierId})`
              : v.delivery.carrier,
          },
        ]
      : []),
    ...(v.delivery?.dispatchDate
      ? [{ label: LABELS.dispatchDate, value: formatDate(v.delivery.dispatchDate) }]
      : []),
    ...(v.delivery?.tracking ? [{ label: LABELS.tracking, value: v.delivery.tracking }] : []),
  ];
  const exemptions = v.taxes.flatMap((t) => (t.exemption ? [`${LABELS.exemption} ${t.exemption}`] : []));
  const lines = v.lines.map((l) => {
    const base = l.allowance?.base ?? l.allowance?.amount;
    const rateOf =
      l.allowance && base && Number(base.value) > 0
        ? formatPercent(String((Number(l.allowance.amount.value) / Number(base.value)) * 100))
        : "%0,00";
    return [
      l.id,
      l.name,
      formatQuantity(l.quantity, l.unitCode),
      l.price ? formatPrice(l.price) : "",
      rateOf,
      l.allowance
        ? formatMoney(l.allowance.amount)
        : formatMoney({ value: "0", currency: l.lineExtension.currency }),
      l.vatPercent ? formatPercent(l.vatPercent) : "",
      l.vatAmount ? formatMoney(l.vatAmount) : "",
      formatMoney(l.lineExtension),
    ];
  });
  return {
    title: v.profile === "EARSIVFATURA" ? LABELS.earsiv : LABELS.efatura,
    header,
    totals,
    internetSale,
    exemptions,
    lines,
    notes: v.notes,
  };
}

export type PrintedForm = ReturnType<typeof printedForm>;

export function partyLines(p: InvoiceView["supplier"]): string[] {
  return [
    ...p.address,
    ...(p.phone ? [`${LABELS.phone} ${p.phone}`] : []),
    ...(p.website ? [`${LABELS.website} ${p.website}`] : []),
    ...(p.email ? [`${LABELS.email} ${p.email}`] : []),
    ...(p.taxOffice ? [`${LABELS.taxOffice} ${p.taxOffice}`] : []),
    ...p.ids.filter((i) => i.scheme === "VKN" || i.scheme === "TCKN").map((i) => `${i.scheme}: ${i.value}`),
  ];
}
