import { defineConnector, textField, urlField } from "../sdk/skeleton";
import { AX_VERSION_PIN } from "./judge/rules";

/** An enhanced integration port on IIS (HTTP adapter), as AX 2012 names its address. */
export const AX_ENDPOINT_EXAMPLE = "http://ax-iis/MicrosoftDynamicsAXAif60/EntegrasyonPaneli/xppservice.svc";

export const axDescriptor = defineConnector("erp", "dynamics-ax", {
  credentials: [
    urlField(
      "endpoint",
      "AIF entegrasyon portu adresi",
      "AX 2012'de (Sistem yönetimi → Kurulum → Hizmetler ve AIF → Gelen bağlantı noktaları) HTTP bağdaştırıcısıyla oluşturulan gelişmiş bağlantı noktasının adresi. Bağlantı noktası şu işlemleri açmalıdır: SalesSalesOrderService.create/findKeys/read, InventItemService.findKeys/read, InventInventoryOnHandService.read.",
      { required: true, placeholder: AX_ENDPOINT_EXAMPLE },
    ),
    textField(
      "company",
      "Şirket (DataAreaId)",
      "Siparişlerin yazılacağı ve stokların okunacağı AX şirketinin kodu (ör. dat). Her çağrının CallContext başlığında gönderilir.",
      { placeholder: "dat" },
    ),
    textField(
      "customerAccount",
      "Web siparişleri müşteri hesabı",
      "Siparişlerin açılacağı AX müşteri hesabı (CustAccount). AX'te önceden tanımlı olmalıdır; alıcının adı ve adresi siparişin teslimat bilgilerine yazılır.",
    ),
    textField(
      "warehouse",
      "Ambar (InventLocationId)",
      "Sipariş satırlarının çıkacağı ambar. Boş bırakılırsa AX müşterinin/maddenin varsayılan ambarını kullanır.",
      { required: false },
    ),
    textField(
      "logonAsUser",
      "İşlemi yapan AX kullanıcısı (isteğe bağlı)",
      "CallContext LogonAsUser: alan\\kullanıcı biçiminde. Boş bırakılırsa Windows kimlik doğrulamasıyla bağlanan kullanıcı kullanılır.",
      { required: false },
    ),
  ],
  batch: { page: 100 },
  // AX documents no limit; an AOS serves many users: stay gentle.
  budget: { requests: 10, windowMs: 1000 },
  onPremOnly: true,
  versionPin: AX_VERSION_PIN,
  notes:
    "AX 2012 AIF belge hizmetleri (SOAP): satış siparişleri SalesOrderService ile yazılır, maddeler ItemService, eldeki stok InventoryOnHandService ile okunur. Yerel bağlantı aracı üzerinden çalışır.",
  notice:
    "AX 2012 hizmetleri Windows kimlik doğrulaması (NTLM/Kerberos) ister: AOS/IIS sunucusuna erişen Windows hesabı yerel bağlantı aracının kurulu olduğu makinede tanımlanır; şifre panele girilmez.",
});
