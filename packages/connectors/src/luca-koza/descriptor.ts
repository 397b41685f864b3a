import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const lucaKozaDescriptor = defineConnector("erp", "luca-koza", {
  credentials: [
    urlField(
      "apiUrl",
      "LucaKoza servis adresi",
      "LucaKoza REST servisinin adresi (Luca'nın size verdiği, .do uçlarının bulunduğu adres), örn. https://akozas.luca.com.tr/luca-rs/rest.",
      { required: true, placeholder: "https://akozas.luca.com.tr/luca-rs/rest" },
    ),
    textField("orgCode", "Üye numarası", "LucaKoza organizasyonunuzun üye numarası (orgCode)."),
    textField(
      "userName",
      "Kullanıcı adı",
      "Organizasyonun Admin yetkili kullanıcısı; Luca REST servisi yalnızca Admin kullanıcıyla çalışır.",
    ),
    secretField(
      "userPassword",
      "Şifre",
      "Admin kullanıcısının şifresi. Şifreli saklanır; yalnızca oturum açarken gönderilir.",
    ),
    textField(
      "branchId",
      "Şirket/Şube kimliği",
      "Çalışılacak şirket/şubenin kimliği. Boşsa kullanıcının tek şirket/şubesi seçilir; birden fazlaysa bağlantı testi seçenekleri listeler.",
      { required: false, type: "number" },
    ),
  ],
  batch: { page: 500 },
  // No published limit; the session is server-side state, so stay gentle.
  budget: { requests: 3, windowMs: 1000 },
  notes:
    "LucaKoza bir ön muhasebe sistemidir: stok kartları, depolar, depo miktarları, satış fiyat listeleri ve kategoriler okunur. LucaKoza'da satış siparişi oluşturan bir servis bulunmadığından siparişler LucaKoza'ya aktarılmaz.",
});
