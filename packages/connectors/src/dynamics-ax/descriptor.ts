import { defineConnector } from "../sdk/skeleton";

/** An enhanced integration port on IIS (HTTP adapter), as AX 2012 names its address. */
export const AX_ENDPOINT_EXAMPLE = "http://ax-iis/MicrosoftDynamicsAXAif60/EntegrasyonPaneli/xppservice.svc";

export const axDescriptor = defineConnector("erp", {
  type: 7,
  name: "Microsoft Dynamics AX",
  system: "dynamics-ax",
  credentials: [
    {
      name: "endpoint",
      label: "AIF entegrasyon portu adresi",
      help: "AX 2012'de (Sistem yönetimi → Kurulum → Hizmetler ve AIF → Gelen bağlantı noktaları) HTTP bağdaştırıcısıyla oluşturulan gelişmiş bağlantı noktasının adresi. Bağlantı noktası şu işlemleri açmalıdır: SalesSalesOrderService.create/findKeys/read, InventItemService.findKeys/read, InventInventoryOnHandService.read.",
      secret: false,
      required: true,
      type: "url",
      placeholder: AX_ENDPOINT_EXAMPLE,
    },
    {
      name: "company",
      label: "Şirket (DataAreaId)",
      help: "Siparişlerin yazılacağı ve stokların okunacağı AX şirketinin kodu (ör. dat). Her çağrının CallContext başlığında gönderilir.",
      secret: false,
      required: true,
      type: "text",
      placeholder: "dat",
    },
    {
      name: "customerAccount",
      label: "Web siparişleri müşteri hesabı",
      help: "Siparişlerin açılacağı AX müşteri hesabı (CustAccount). AX'te önceden tanımlı olmalıdır; alıcının adı ve adresi siparişin teslimat bilgilerine yazılır.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "warehouse",
      label: "Ambar (InventLocationId)",
      help: "Sipariş satırlarının çıkacağı ambar. Boş bırakılırsa AX müşterinin/maddenin varsayılan ambarını kullanır.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "logonAsUser",
      label: "İşlemi yapan AX kullanıcısı (isteğe bağlı)",
      help: "CallContext LogonAsUser: alan\\kullanıcı biçiminde. Boş bırakılırsa Windows kimlik doğrulamasıyla bağlanan kullanıcı kullanılır.",
      secret: false,
      required: false,
      type: "text",
    },
  ],
  batch: { page: 100 },
  // AX documents no limit; an AOS serves many users: stay gentle.
  budget: { requests: 10, windowMs: 1000 },
  onPremOnly: true,
  notes:
    "AX 2012 AIF belge hizmetleri (SOAP): satış siparişleri SalesOrderService ile yazılır, maddeler ItemService, eldeki stok InventoryOnHandService ile okunur. Yerel bağlantı aracı üzerinden çalışır.",
  notice:
    "AX 2012 hizmetleri Windows kimlik doğrulaması (NTLM/Kerberos) ister: AOS/IIS sunucusuna erişen Windows hesabı yerel bağlantı aracının kurulu olduğu makinede tanımlanır; şifre panele girilmez.",
});
