import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const ENTEGRA_DEFAULT_API_URL = "https://apiv2.entegrabilisim.com";

export const entegraDescriptor = defineConnector("erp", "entegra", {
  credentials: [
    textField(
      "email",
      "Entegra e-posta adresi",
      "Entegra paneline giriş yaptığınız API kullanıcısının e-posta adresi.",
    ),
    secretField(
      "password",
      "Entegra şifresi",
      "API kullanıcısının şifresi. Şifreli saklanır; yalnızca oturum anahtarı (JWT) almak için gönderilir.",
    ),
    urlField(
      "apiUrl",
      "Entegra API adresi",
      "Değiştirmeyin: https://apiv2.entegrabilisim.com. Yalnızca Entegra size farklı bir adres verdiyse doldurun.",
      { default: ENTEGRA_DEFAULT_API_URL },
    ),
  ],
  batch: { page: 100 },
  // The public Singer tap notes 20,000 requests a day; one request a second stays far below it.
  budget: { requests: 1, windowMs: 1000 },
  notes:
    "Entegra okuma bağlantısıdır: ürünler, stok, fiyatlar ve kategoriler Entegra'dan okunur. Sipariş ve müşteri yazma Entegra'nın doğrulanabilir bir API'si olmadığı için desteklenmez; siparişler Entegra'ya aktarılmaz.",
});
