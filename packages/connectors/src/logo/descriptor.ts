import type { CredentialField } from "../sdk/connector";
import { defineConnector, textField } from "../sdk/skeleton";

/**
 * Logo Tiger / Logo Go is one product with two roads in: the Logo REST service (Objects REST, licensed
 * separately) for writes, and its SQL Server database (read through the on-site agent) for reads.
 * Both types run the same connector (./connector.ts):
 * - type 4 "Logo": REST writes + SQL reads; the REST fields are required and the connection test fails
 *   when the REST service is not licensed.
 * - type 11 "Logo Tiger": SQL reads; orders go through the REST service when it is configured and
 *   licensed, otherwise the connection test says so and offers the generic SQL / file route for orders.
 */

const REST_FIELDS = (required: boolean): CredentialField[] => [
  {
    name: "restUrl",
    label: "Logo REST servis adresi",
    help: "Logo REST servisinin adresi ve portu, örn. http://192.168.1.10:32001 (Logo REST Servis Ayarları'ndaki port). Yerel bağlantı aracı bu adrese ulaşabilmelidir.",
    secret: false,
    required,
    type: "url",
    placeholder: "http://logo-sunucu:32001",
  },
  {
    name: "clientId",
    label: "REST istemci kimliği (client id)",
    help: "Logo REST servisi için size verilen istemci kimliği.",
    secret: false,
    required,
    type: "text",
  },
  {
    name: "clientSecret",
    label: "REST istemci anahtarı (client secret)",
    help: "İstemci kimliğiyle birlikte verilen gizli anahtar. Şifreli saklanır.",
    secret: true,
    required,
    type: "password",
  },
  {
    name: "username",
    label: "Logo kullanıcısı",
    help: "Logo'ya giriş yapan ve sipariş/cari kartı açma yetkisi olan kullanıcı.",
    secret: false,
    required,
    type: "text",
  },
  {
    name: "password",
    label: "Logo şifresi",
    help: "Logo kullanıcısının şifresi. Şifreli saklanır; yalnız oturum açarken gönderilir.",
    secret: true,
    required,
    type: "password",
  },
];

const COMMON_FIELDS: CredentialField[] = [
  textField("firmNo", "Firma numarası", "Logo'daki firma numarası, örn. 1 (tablolar LG_001_… olur).", {
    type: "number",
    default: "1",
  }),
  textField(
    "periodNo",
    "Dönem numarası (isteğe bağlı)",
    "Boş bırakırsanız çalışılan dönem Logo'dan (L_CAPIPERIOD) bulunur; yıl sonunda yeni döneme geçiş kendiliğinden izlenir.",
    { required: false, type: "number" },
  ),
  textField(
    "sqlAlias",
    "Veritabanı takma adı",
    'Yerel bağlantı aracında "entegrasyon-agent db add AD --dialect mssql --host … --database … --user … --password …" ile kaydettiğiniz Logo veritabanının adı; parola yalnızca o makinede kalır.',
    { required: false, placeholder: "logo" },
  ),
  textField("sqlDialect", "Veritabanı türü", "Logo veritabanı SQL Server'dır: mssql.", {
    required: false,
    default: "mssql",
  }),
  textField(
    "warehouseNo",
    "Sipariş ambarı",
    "Siparişlerin çıkacağı ambar numarası (SOURCE_WH), örn. 0. Boşsa Logo'nun öntanımlı ambarı kullanılır.",
    { required: false, type: "number" },
  ),
  textField(
    "shippingCode",
    "Kargo hizmet kartı kodu",
    "Kargo ücretinin siparişe hizmet satırı olarak eklenmesi için Logo'daki hizmet kartının kodu. Boşsa kargo ücreti sipariş notuna yazılır.",
    { required: false },
  ),
  textField(
    "customerPrefix",
    "Cari kod öneki",
    "E-ticaret müşterileri için açılacak cari kart kodlarının öneki, örn. 120.W.",
    { required: false, default: "120.W." },
  ),
];

function logoDescriptor(system: "logo" | "logo-tiger", restRequired: boolean, notes: string) {
  return defineConnector("erp", system, {
    credentials: [...REST_FIELDS(restRequired), ...COMMON_FIELDS],
    batch: { page: 500 },
    // Logo documents no rate limit for its REST service (inferred: an on-site server, keep it gentle).
    budget: { requests: 10, windowMs: 1000 },
    onPremOnly: true,
    changeCursors: { products: true, prices: true },
    notes,
  });
}

export const logoRestDescriptor = logoDescriptor(
  "logo",
  true,
  "Logo Tiger / Go: orders and customer cards through the Logo REST service (/api/v1, token with client id/secret + user + firm no); catalogue, stock per warehouse and prices over SQL (LG_{firm}_…) through the on-site agent.",
);

export const logoTigerDescriptor = logoDescriptor(
  "logo-tiger",
  false,
  "Logo Tiger over SQL (LG_{firm}_{period}_… through the on-site agent); orders through the Logo REST service when licensed, else the generic SQL / file route.",
);
