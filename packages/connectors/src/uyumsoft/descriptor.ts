import type { ConnectorDescriptor } from "../sdk/connector";
import { NOT_A_PRODUCT_SOURCE } from "../sdk/einvoice-connector";
import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Uyumsoft's test service (accepts the public test user; nothing reaches GİB). */
export const UYUMSOFT_TEST_ENDPOINT = "https://efatura-test.uyumsoft.com.tr/Services/Integration";
/** The live service. */
export const UYUMSOFT_LIVE_ENDPOINT = "https://efatura.uyumsoft.com.tr/Services/Integration";

export { NOT_A_PRODUCT_SOURCE };

export const uyumsoftDescriptor = defineConnector("erp", "uyumsoft", {
  credentials: [
    urlField(
      "endpoint",
      "Servis adresi",
      `Uyumsoft e-Dönüşüm entegrasyon servisinin adresi. Deneme için ${UYUMSOFT_TEST_ENDPOINT}, canlı kullanım için ${UYUMSOFT_LIVE_ENDPOINT}.`,
      { required: true, default: UYUMSOFT_TEST_ENDPOINT, placeholder: UYUMSOFT_TEST_ENDPOINT },
    ),
    textField(
      "username",
      "Web servis kullanıcı adı",
      "Uyumsoft portalında (Ayarlar → Web Servis Kullanıcıları) tanımlanan entegrasyon kullanıcısı. Portal giriş kullanıcınızdan farklı olabilir.",
    ),
    secretField(
      "password",
      "Web servis şifresi",
      "Entegrasyon kullanıcısının şifresi. Şifreli saklanır; yalnızca HTTPS üzerinden WS-Security ile gönderilir.",
    ),
  ],
  batch: { page: 500 },
  // Uyumsoft documents no limit: stay gentle, invoices are few and each is one call.
  budget: { requests: 5, windowMs: 1000 },
  notes: `e-Fatura / e-Arşiv özel entegratörü (SOAP, WS-Security). Fatura gönderir, durum ve PDF sorgular, e-Arşiv iptal eder. ${NOT_A_PRODUCT_SOURCE}: ürün, stok, fiyat ve sipariş okunmaz.`,
});

/**
 * UyumsoftPortal (type 18) is Uyumsoft's web portal; it has no API of its own, so it is served by the
 * same e-Dönüşüm web service and the same connection settings.
 */
export const uyumsoftPortalDescriptor: ConnectorDescriptor & { kind: "erp" } = {
  ...uyumsoftDescriptor,
  type: 18,
  name: "UyumsoftPortal",
  system: "uyumsoft-portal",
  notes: `Uyumsoft portalının kendi API'si yoktur; bağlantı Uyumsoft e-Dönüşüm web servisi ile kurulur (Uyumsoft ile aynı ayarlar). ${NOT_A_PRODUCT_SOURCE}.`,
};
