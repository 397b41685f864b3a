import { defineConnector, textField } from "../sdk/skeleton";

/**
 * Wolvox (6) and WolvoxSDK (10): both reach the company's WOLVOX.FDB through the on-site agent. The
 * vendor SDK (an HTTP service inside Wolvox's Kontrol Paneli) is licensed to partners only and not
 * public, so type 10 uses the same database path (artifacts-by-system.md: Wolvox).
 */
export function wolvoxDescriptor(system: "wolvox" | "wolvox-sdk") {
  return defineConnector("erp", system, {
    credentials: [
      textField(
        "sqlAlias",
        "Veritabanı takma adı",
        'Wolvox\'un kurulu olduğu makinedeki yerel bağlantı aracında "entegrasyon-agent db add wolvox --dialect firebird --host 127.0.0.1 --database C:\\AKINSOFT\\Wolvox9\\Database_FB\\001\\2026\\WOLVOX.FDB --user SYSDBA --password …" ile kaydettiğiniz ad (şirket ve çalışma yılı klasöründeki WOLVOX.FDB). Parola yalnızca o makinede kalır.',
        { placeholder: "wolvox", default: "wolvox" },
      ),
      textField(
        "customerCode",
        "Web siparişleri cari kodu",
        "Siparişlerin yazılacağı Wolvox cari kartının kodu (isteğe bağlı). Boş bırakılırsa sipariş alıcının bilgileriyle cari seçilmeden kaydedilir; onaylarken Wolvox'ta cariyi siz seçersiniz.",
        { required: false },
      ),
      textField(
        "branchCode",
        "Şube kodu",
        "Siparişlerin kaydedileceği Wolvox şube kodu (isteğe bağlı, ör. MERKEZ).",
        { required: false },
      ),
      textField(
        "pricesIncludeVat",
        "Satış fiyatları KDV dahil",
        "Wolvox satış fiyatlarınız KDV dahil ise evet, hariç ise hayır yazın.",
        { required: false, default: "evet" },
      ),
    ],
    batch: { page: 500 },
    budget: { requests: 20, windowMs: 1000 },
    onPremOnly: true,
    // Products: STOK.DEGISTIRME_TARIHI / KAYIT_TARIHI; prices: STOK_FIYAT.FIYAT_DEG_TARIHI (set by the
    // database's own triggers). Stock is summed from movements and read whole.
    changeCursors: { products: true, prices: true },
    notes:
      "Akınsoft Wolvox over the on-site agent (Firebird): stock cards, stock per warehouse, sales prices, barcodes, groups; orders as pending SIPARIS documents the user confirms in Wolvox.",
    notice:
      "Siparişler Wolvox'a \"Beklemede\" durumunda alınan sipariş olarak yazılır; faturaya ya da irsaliyeye Wolvox'ta siz dönüştürürsünüz. Stok ve cari hareketlerine dokunulmaz.",
  });
}

export const wolvoxDescriptors = [wolvoxDescriptor("wolvox"), wolvoxDescriptor("wolvox-sdk")];
