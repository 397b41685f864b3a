/**
 * LucaPortal (19): TÜRMOB's Luca e-invoice portal has no API (the only public code is a third-party scraper,
 * code id 54921045839, not something to build on). Invoices are generated here (UBL-TR, gap-free numbers) and
 * the merchant downloads a day's or a date range's invoices from the Faturalar screen (Excel list, or a zip
 * of UBL XML files) and uploads them to the portal. Nothing is sent; no connection settings are needed.
 */

import type { ErpConnectorModule } from "../sdk/connector-module";
import { NOT_A_PRODUCT_SOURCE, NotAProductSourceConnector } from "../sdk/einvoice-connector";
import { defineConnector } from "../sdk/skeleton";

export const LUCA_PORTAL_NOTICE =
  "LucaPortal'ın API'si yok: faturalarınız burada hazırlanır (UBL-TR, GİB numarası) ama gönderilmez. Faturalar ekranından günün ya da bir tarih aralığının faturalarını Excel veya UBL (zip) olarak indirip Luca portalına yükleyin.";

export const lucaPortalDescriptor = defineConnector("erp", {
  type: 19,
  name: "LucaPortal",
  system: "luca-portal",
  credentials: [],
  batch: { page: 500 },
  budget: { requests: 1, windowMs: 1000 },
  notes: `Luca e-fatura portalı: API yok, faturalar dosya ile aktarılır. ${NOT_A_PRODUCT_SOURCE}.`,
  notice: LUCA_PORTAL_NOTICE,
});

export const lucaPortalModule: ErpConnectorModule = {
  descriptor: lucaPortalDescriptor,
  create: () => new NotAProductSourceConnector(lucaPortalDescriptor),
  fileInvoices: true,
};
