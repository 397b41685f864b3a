/**
 * GİB invoice numbers: three characters of the series, the year, nine digits (`ABC2026000000001`).
 * GİB's schematron checks `^[A-Z0-9]{3}20[0-9]{2}[0-9]{9}$`; the numbers of a series must be gap-free,
 * which the server's allocator guarantees (apps/server/src/modules/invoices/numbering.ts).
 */
export const INVOICE_NUMBER = /^[A-Z0-9]{3}20[0-9]{2}[0-9]{9}$/;
const SERIES = /^[A-Z0-9]{3}$/;

export function isValidSeries(series: string): boolean {
  return SERIES.test(series);
}

export function formatInvoiceNumber(series: string, year: number, sequence: number): string {
  if (!isValidSeries(series)) throw new RangeError(`Fatura serisi üç büyük harf/rakam olmalı: "${series}"`);
  if (!Number.isInteger(year) || year < 2000 || year > 2099) throw new RangeError(`Geçersiz yıl: ${year}`);
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999_999)
    throw new RangeError(`Fatura sıra numarası 1..999999999 olmalı: ${sequence}`);
  return `${series}${year}${String(sequence).padStart(9, "0")}`;
}

export function parseInvoiceNumber(number: string): { series: string; year: number; sequence: number } {
  if (!INVOICE_NUMBER.test(number)) throw new RangeError(`Geçersiz fatura numarası: "${number}"`);
  return { series: number.slice(0, 3), year: Number(number.slice(3, 7)), sequence: Number(number.slice(7)) };
}
