export * from "./amounts.ts";
export * from "./document.ts";
export * from "./number.ts";
export * from "./profile.ts";
export { renderInvoiceHtml } from "./render/html.ts";
export { renderInvoicePdf } from "./render/pdf.ts";
export { type InvoiceView, readInvoice } from "./render/read.ts";
export * from "./returns.ts";
export * from "./ubl.ts";
