import { defineConnector } from "../sdk/skeleton";

export const lucaKozaDescriptor = defineConnector("erp", {
  type: 23,
  name: "LucaKoza",
  system: "luca-koza",
  credentials: [
    {
      name: "apiUrl",
      label: "Luca Koza servis adresi",
      help: "Luca Koza REST servisinin adresi (Luca'nın size verdiği, .do uçlarının bulunduğu adres), örn. https://akozas.luca.com.tr/luca-rs/rest.",
      secret: false,
      required: true,
      type: "url",
      placeholder: "https://akozas.luca.com.tr/luca-rs/rest",
    },
    {
      name: "orgCode",
      label: "Üye numarası",
      help: "Luca Koza organizasyonunuzun üye numarası (orgCode).",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "userName",
      label: "Kullanıcı adı",
      help: "Organizasyonun Admin yetkili kullanıcısı; Luca REST servisi yalnızca Admin kullanıcıyla çalışır.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "userPassword",
      label: "Şifre",
      help: "Admin kullanıcısının şifresi. Şifreli saklanır; yalnızca oturum açarken gönderilir.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "branchId",
      label: "Şirket/Şube kimliği",
      help: "Çalışılacak şirket/şubenin kimliği. Boşsa kullanıcının tek şirket/şubesi seçilir; birden fazlaysa bağlantı testi seçenekleri listeler.",
      secret: false,
      required: false,
      type: "number",
    },
  ],
  batch: { page: 500 },
  // No published limit; the session is server-side state, so stay gentle.
  budget: { requests: 3, windowMs: 1000 },
  notes:
    "Luca Koza bir ön muhasebe sistemidir: stok kartları, depolar, depo miktarları, satış fiyat listeleri ve kategoriler okunur. Koza'da satış siparişi oluşturan bir servis bulunmadığından siparişler Luca Koza'ya aktarılmaz.",
});
