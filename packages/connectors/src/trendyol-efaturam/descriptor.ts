import { NOT_A_PRODUCT_SOURCE } from "../sdk/einvoice-connector";
import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Trendyol e-Faturam's gateways (third-party client; see judge/requests.json). */
export const TRENDYOL_EFATURAM_STAGE = "https://stage-apigateway.trendyolefaturam.com";
export const TRENDYOL_EFATURAM_LIVE = "https://apigateway.trendyolecozum.com";

export const trendyolEFaturamDescriptor = defineConnector("erp", "trendyol-efaturam", {
  credentials: [
    urlField(
      "apiUrl",
      "Servis adresi",
      `Trendyol e-Faturam API ağ geçidi. Canlı kullanım için ${TRENDYOL_EFATURAM_LIVE}; test ortamı ${TRENDYOL_EFATURAM_STAGE} yalnızca Trendyol e-Faturam portalında izin verdiğiniz IPv4 adreslerinden (en çok 3) erişilebilir.`,
      { required: true, default: TRENDYOL_EFATURAM_LIVE, placeholder: TRENDYOL_EFATURAM_LIVE },
    ),
    textField(
      "email",
      "E-posta",
      "Trendyol e-Faturam portalına giriş yaptığınız kullanıcının e-posta adresi. Faturalar bu kullanıcı adına kesilir.",
    ),
    secretField(
      "password",
      "Şifre",
      "Aynı kullanıcının portal şifresi. Şifreli saklanır; yalnızca oturum açmak için HTTPS üzerinden gönderilir, oturum 24 saat geçerlidir.",
    ),
  ],
  batch: { page: 50 },
  // No published limit: one call per invoice, kept gentle (the gateway sits behind Cloudflare's WAF).
  budget: { requests: 5, windowMs: 1000 },
  notes: `e-Fatura / e-Arşiv servisi (REST, kendi JSON biçimi; UBL'yi Trendyol e-Faturam üretir). Fatura keser, durum ve PDF sorgular, e-Arşiv iptal eder. Herkese açık belgesi yoktur: bağlantı üçüncü taraf istemcilerden çıkarılmıştır. ${NOT_A_PRODUCT_SOURCE}.`,
});
