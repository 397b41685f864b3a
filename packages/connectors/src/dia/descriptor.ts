import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const diaDescriptor = defineConnector("erp", "dia", {
  credentials: [
    textField(
      "serverCode",
      "Sunucu kodu",
      "DİA adresinizdeki sunucu kodu: https://SUNUCUKODU.ws.dia.com.tr adresindeki SUNUCUKODU kısmı.",
      { placeholder: "firmam" },
    ),
    textField(
      "username",
      "Kullanıcı",
      "DİA'da tanımlı, web servis yetkisi olan kullanıcı adı. Masaüstünde yapabildiği işlemleri yapabilir.",
    ),
    secretField(
      "password",
      "Şifre",
      "DİA kullanıcısının şifresi. Şifreli saklanır; yalnız oturum açarken gönderilir.",
    ),
    secretField(
      "apiKey",
      "API anahtarı",
      "DİA'nın verdiği web servis API anahtarı (satis@dia.com.tr adresinden istenir).",
    ),
    textField("firmCode", "Firma kodu", "Bağlanılacak DİA firmasının kodu (firma_kodu), örn. 1.", {
      type: "number",
      default: "1",
    }),
    textField(
      "periodCode",
      "Dönem kodu",
      "Çalışılacak dönemin kodu (donem_kodu), örn. 1. Yeni döneme geçince güncelleyin.",
      { type: "number", default: "1" },
    ),
    textField(
      "depotCode",
      "Sipariş deposu",
      "Siparişlerin düşüleceği deponun kodu (depokodu). Boşsa DİA'nın öntanımlı deposu kullanılır.",
      { required: false },
    ),
    textField(
      "customerPrefix",
      "Cari kod öneki",
      "E-ticaret müşterileri için açılacak cari kart kodlarının öneki, örn. 120.W.",
      { required: false, default: "120.W." },
    ),
    urlField(
      "apiUrl",
      "Servis adresi (isteğe bağlı)",
      "Yalnız DİA özel bir adres verdiyse doldurun; boşsa https://SUNUCUKODU.ws.dia.com.tr/api/v3 kullanılır.",
    ),
  ],
  // Every call costs kontör: big pages mean fewer calls (the doc allows any limit; 0 = all).
  batch: { page: 500 },
  // DİA documents no rate limit (inferred: stay gentle on a shared cloud server).
  budget: { requests: 5, windowMs: 1000 },
  changeCursors: { products: true, prices: true },
  metering: { kind: "credit", unit: "kontör", creditPerCall: 0.0125, freeOperations: ["login"] },
  notes:
    "DİA WS v3 JSON (POST /api/v3/{modül}/json): login → session_id; every answer's in-body code is checked; each call costs 0.0125 kontör.",
});
