import { defineConnector } from "../sdk/skeleton";

export const ENTEGRA_DEFAULT_API_URL = "https://apiv2.entegrabilisim.com";

export const entegraDescriptor = defineConnector("erp", {
  type: 16,
  name: "Entegra",
  system: "entegra",
  credentials: [
    {
      name: "email",
      label: "Entegra e-posta adresi",
      help: "Entegra paneline giriş yaptığınız API kullanıcısının e-posta adresi.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "password",
      label: "Entegra şifresi",
      help: "API kullanıcısının şifresi. Şifreli saklanır; yalnızca oturum anahtarı (JWT) almak için gönderilir.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "apiUrl",
      label: "Entegra API adresi",
      help: "Değiştirmeyin: https://apiv2.entegrabilisim.com. Yalnızca Entegra size farklı bir adres verdiyse doldurun.",
      secret: false,
      required: false,
      type: "url",
      default: ENTEGRA_DEFAULT_API_URL,
    },
  ],
  batch: { page: 100 },
  // The public Singer tap notes 20,000 requests a day; one request a second stays far below it.
  budget: { requests: 1, windowMs: 1000 },
  notes:
    "Entegra okuma bağlantısıdır: ürünler, stok, fiyatlar ve kategoriler Entegra'dan okunur. Sipariş ve müşteri yazma Entegra'nın doğrulanabilir bir API'si olmadığı için desteklenmez; siparişler Entegra'ya aktarılmaz.",
});
