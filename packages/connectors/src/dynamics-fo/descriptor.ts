import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Azure AD v2 token endpoint of a tenant (client credentials). */
export function d365TokenUrl(tenantId: string): string {
  return `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
}

/** Item sales tax group → KDV rate, as most Turkish F&O set-ups name their groups. */
export const D365_DEFAULT_VAT_GROUPS = "KDV20=20;KDV10=10;KDV1=1;KDV0=0";

export const d365Descriptor = defineConnector("erp", "dynamics-ax-rest", {
  credentials: [
    urlField(
      "environmentUrl",
      "Dynamics 365 ortam adresi",
      "Finance & Operations ortamınızın adresi, örn. https://firmaniz.operations.dynamics.com (OData servisi /data altında).",
      { required: true, placeholder: "https://firmaniz.operations.dynamics.com" },
    ),
    textField(
      "tenantId",
      "Azure AD kiracı kimliği (Tenant ID)",
      "Microsoft Entra ID (Azure AD) → Genel bakış ekranındaki Dizin (kiracı) kimliği.",
    ),
    textField(
      "clientId",
      "Uygulama (istemci) kimliği",
      "Entra ID'de kayıtlı uygulamanın kimliği. Bu uygulama D365'te Sistem yönetimi → Microsoft Entra ID uygulamaları ekranında bir kullanıcıya bağlanmış olmalıdır.",
    ),
    secretField(
      "clientSecret",
      "İstemci gizli anahtarı",
      "Uygulamanın Sertifikalar ve gizli anahtarlar ekranında oluşturulan gizli anahtarın değeri. Şifreli saklanır.",
    ),
    textField(
      "company",
      "Şirket (tüzel kişilik kodu)",
      "Verilerin okunacağı ve siparişlerin yazılacağı D365 şirketi (dataAreaId), örn. TR01.",
    ),
    textField(
      "customerGroup",
      "Müşteri grubu",
      "E-ticaret müşterileri için açılacak müşteri hesaplarının müşteri grubu (CustomerGroupId).",
      { placeholder: "ETICARET" },
    ),
    textField(
      "customerPrefix",
      "Müşteri hesap öneki",
      "E-ticaret müşterilerine açılacak hesap numaralarının öneki. Müşteri hesabı numara serisi elle girişe izin vermelidir.",
      { required: false, default: "ETC-" },
    ),
    textField(
      "site",
      "Sipariş tesisi",
      "Siparişlerin sevk edileceği tesis (Site). Boşsa müşteri/ürün varsayılanı kullanılır.",
      { required: false },
    ),
    textField(
      "warehouse",
      "Sipariş ambarı",
      "Siparişlerin sevk edileceği ambar (Warehouse). Boşsa müşteri/ürün varsayılanı kullanılır.",
      { required: false },
    ),
    textField(
      "categoryHierarchy",
      "Ürün kategori hiyerarşisi",
      "Kategorilerin okunacağı ürün kategori hiyerarşisinin adı. Boşsa kategori okunmaz.",
      { required: false },
    ),
    textField(
      "vatGroups",
      "Madde satış vergisi grupları",
      "Ürünün madde satış vergisi grubundan KDV oranına eşleme: GRUP=ORAN, noktalı virgülle ayrılır. Listede olmayan gruptaki ürünler hata olarak raporlanır.",
      { required: false, default: D365_DEFAULT_VAT_GROUPS },
    ),
    urlField(
      "tokenUrl",
      "Token adresi",
      "Boş bırakın: kiracı kimliğinden https://login.microsoftonline.com/<kiracı>/oauth2/v2.0/token kullanılır. Yalnızca farklı bir kimlik sağlayıcı kullanılıyorsa doldurun.",
    ),
  ],
  // The server's own page size is up to 10,000 rows; smaller pages keep each call short.
  batch: { page: 1000 },
  // Priority-based throttling answers 429 with Retry-After; no fixed number is published.
  budget: { requests: 6, windowMs: 1000 },
  notes:
    "D365 Finance & Operations OData v4 (/data/{EntitySet}) with Entra ID client credentials; order lines in one $batch change set.",
});
