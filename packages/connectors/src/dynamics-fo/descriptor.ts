import { defineConnector } from "../sdk/skeleton";

/** Azure AD v2 token endpoint of a tenant (client credentials). */
export function d365TokenUrl(tenantId: string): string {
  return `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
}

/** Item sales tax group → KDV rate, as most Turkish F&O set-ups name their groups. */
export const D365_DEFAULT_VAT_GROUPS = "KDV20=20;KDV10=10;KDV1=1;KDV0=0";

export const d365Descriptor = defineConnector("erp", {
  type: 17,
  name: "Microsoft Dynamics AX Rest API",
  system: "dynamics-ax-rest",
  credentials: [
    {
      name: "environmentUrl",
      label: "Dynamics 365 ortam adresi",
      help: "Finance & Operations ortamınızın adresi, örn. https://firmaniz.operations.dynamics.com (OData servisi /data altında).",
      secret: false,
      required: true,
      type: "url",
      placeholder: "https://firmaniz.operations.dynamics.com",
    },
    {
      name: "tenantId",
      label: "Azure AD kiracı kimliği (Tenant ID)",
      help: "Microsoft Entra ID (Azure AD) → Genel bakış ekranındaki Dizin (kiracı) kimliği.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "clientId",
      label: "Uygulama (istemci) kimliği",
      help: "Entra ID'de kayıtlı uygulamanın kimliği. Bu uygulama D365'te Sistem yönetimi → Microsoft Entra ID uygulamaları ekranında bir kullanıcıya bağlanmış olmalıdır.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "clientSecret",
      label: "İstemci gizli anahtarı",
      help: "Uygulamanın Sertifikalar ve gizli anahtarlar ekranında oluşturulan gizli anahtarın değeri. Şifreli saklanır.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "company",
      label: "Şirket (tüzel kişilik kodu)",
      help: "Verilerin okunacağı ve siparişlerin yazılacağı D365 şirketi (dataAreaId), örn. TR01.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "customerGroup",
      label: "Müşteri grubu",
      help: "E-ticaret müşterileri için açılacak müşteri hesaplarının müşteri grubu (CustomerGroupId).",
      secret: false,
      required: true,
      type: "text",
      placeholder: "ETICARET",
    },
    {
      name: "customerPrefix",
      label: "Müşteri hesap öneki",
      help: "E-ticaret müşterilerine açılacak hesap numaralarının öneki. Müşteri hesabı numara serisi elle girişe izin vermelidir.",
      secret: false,
      required: false,
      type: "text",
      default: "ETC-",
    },
    {
      name: "site",
      label: "Sipariş tesisi",
      help: "Siparişlerin sevk edileceği tesis (Site). Boşsa müşteri/ürün varsayılanı kullanılır.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "warehouse",
      label: "Sipariş ambarı",
      help: "Siparişlerin sevk edileceği ambar (Warehouse). Boşsa müşteri/ürün varsayılanı kullanılır.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "categoryHierarchy",
      label: "Ürün kategori hiyerarşisi",
      help: "Kategorilerin okunacağı ürün kategori hiyerarşisinin adı. Boşsa kategori okunmaz.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "vatGroups",
      label: "Madde satış vergisi grupları",
      help: "Ürünün madde satış vergisi grubundan KDV oranına eşleme: GRUP=ORAN, noktalı virgülle ayrılır. Listede olmayan gruptaki ürünler hata olarak raporlanır.",
      secret: false,
      required: false,
      type: "text",
      default: D365_DEFAULT_VAT_GROUPS,
    },
    {
      name: "tokenUrl",
      label: "Token adresi",
      help: "Boş bırakın: kiracı kimliğinden https://login.microsoftonline.com/<kiracı>/oauth2/v2.0/token kullanılır. Yalnızca farklı bir kimlik sağlayıcı kullanılıyorsa doldurun.",
      secret: false,
      required: false,
      type: "url",
    },
  ],
  // The server's own page size is up to 10,000 rows; smaller pages keep each call short.
  batch: { page: 1000 },
  // Priority-based throttling answers 429 with Retry-After; no fixed number is published.
  budget: { requests: 6, windowMs: 1000 },
  notes:
    "D365 Finance & Operations OData v4 (/data/{EntitySet}) with Entra ID client credentials; order lines in one $batch change set.",
});
