import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Rows per list page (the source pages with `page` + `size`; no maximum is published: our choice). */
export const SENTOS_PAGE_SIZE = 100;
/** Sentos API v1.5 (cited by code id 70268014554): POST 12 per minute, the same GET twice per minute. */
export const SENTOS_POSTS_PER_WINDOW = 12;
export const SENTOS_IDENTICAL_GETS_PER_WINDOW = 2;
export const SENTOS_WINDOW_MS = 60_000;

const READ_ONLY =
  "Sentos için doğrulanmış bir yazma yolu yok (kaynak istemci yazmaları bilerek engelliyor); Sentos bağlantısı yalnızca ürünleri, depoları ve siparişleri okur.";

export const sentosDescriptor = defineConnector("shop", "sentos", {
  credentials: [
    urlField(
      "apiUrl",
      "API adresi",
      "Sentos panelinde görünen API Url: https://<firma-adınız>.sentos.com.tr/api",
      { required: true, placeholder: "https://firmaniz.sentos.com.tr/api" },
    ),
    textField("apiKey", "API anahtarı", "Sentos panelindeki API Anahtar değeri (Basic Auth kullanıcı adı)."),
    secretField(
      "apiSecret",
      "API şifresi",
      "Sentos panelindeki API Şifre değeri (Basic Auth şifresi). Şifreli saklanır, tekrar gösterilmez.",
    ),
  ],
  batch: { page: SENTOS_PAGE_SIZE },
  // The published POST limit is the only general one; every request keeps it (no GET-wide limit is
  // published, so this is the safe side). The same GET twice a minute is kept per URL on top.
  budget: { requests: SENTOS_POSTS_PER_WINDOW, windowMs: SENTOS_WINDOW_MS },
  changeCursors: { orders: true },
  unsupported: {
    categoryWrite: READ_ONLY,
    productWrite: READ_ONLY,
    stockWrite: READ_ONLY,
    priceWrite: READ_ONLY,
    orderStatusWrite: READ_ONLY,
    invoiceWrite: READ_ONLY,
  },
  notes:
    "Sentos API v1.5: Basic Auth; POST 12/dk, aynı GET 2/dk. Yalnızca okuma: ürünler, depolar, siparişler.",
});
