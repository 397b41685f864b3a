import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const netsisDescriptor = defineConnector("erp", "netsis", {
  credentials: [
    urlField(
      "apiUrl",
      "NetOpenX REST adresi",
      "Netsis sunucusundaki NetOpenX REST servisinin adresi, örn. http://192.168.1.10:7070 (sonuna /api/v2 yazmayın).",
      { required: true, placeholder: "http://sunucu:7070" },
    ),
    textField(
      "netsisUser",
      "Netsis kullanıcısı",
      "NetOpenX yetkisi olan Netsis kullanıcı adı (Netsis'e girişte yazılan ad).",
    ),
    secretField(
      "netsisPassword",
      "Netsis şifresi",
      "Netsis kullanıcısının şifresi. Şifreli saklanır; yalnız oturum açarken gönderilir.",
    ),
    textField(
      "dbName",
      "Şirket (veritabanı) adı",
      "Netsis şirketinin veritabanı adı, örn. MALIYET23 (Netsis giriş ekranındaki şirket).",
    ),
    textField(
      "dbType",
      "Veritabanı türü",
      "Netsis veritabanının türü: 0 = MS SQL (çoğu kurulum), 2 = Oracle.",
      { required: false, type: "number", default: "0" },
    ),
    textField(
      "dbUser",
      "Veritabanı kullanıcısı",
      "Netsis'in veritabanına bağlandığı kullanıcı; kurulumlarda genellikle TEMELSET.",
      { default: "TEMELSET" },
    ),
    secretField(
      "dbPassword",
      "Veritabanı şifresi",
      "Veritabanı kullanıcısının şifresi; boşsa boş bırakın. Şifreli saklanır.",
      { required: false },
    ),
    textField("branchCode", "Şube kodu", "Çalışılacak Netsis şubesinin kodu (merkez için genellikle 0).", {
      type: "number",
      default: "0",
    }),
    textField(
      "depotCode",
      "Sipariş deposu",
      "Siparişlerin düşüleceği Netsis depo kodu (DEPO_KODU), örn. 1.",
      { required: false, type: "number", default: "1" },
    ),
    textField(
      "orderSeries",
      "Sipariş seri",
      "E-ticaret siparişlerinin Netsis'te numaralanacağı seri (belge numarasının başı), örn. W.",
      { required: false, default: "W" },
    ),
    textField(
      "customerPrefix",
      "Cari kod öneki",
      "E-ticaret müşterileri için açılacak cari kartların kod öneki, örn. 120.W.",
      { required: false, default: "120.W." },
    ),
  ],
  batch: { page: 500 },
  // NetOpenX REST documents no rate limit; it runs on the merchant's own server (inferred: stay gentle).
  budget: { requests: 10, windowMs: 1000 },
  onPremOnly: true,
  notes:
    "NetOpenX REST /api/v2 (Netsis'in kendi servisi): şifre ile token (şube, şirket ve veritabanı bilgisiyle); stok kartları Items, depo bakiyeleri Queries (SQL), cari ARPs, sipariş ItemSlips. Her cevabın IsSuccessful alanı kontrol edilir.",
});
