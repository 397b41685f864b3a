/**
 * The Mikro emulator's schema and fixed lists: the tables (with Mikro's column names) integrators read
 * through `SqlVeriOkuV2`, the VAT pointers and VergiListesiV2 as a live Mikro answers it. The rows and
 * what changes them are state.ts.
 */

/** Mikro's VAT pointers (sto_perakende_vergi / sip_vergi_pntr) → rate. */
export const MIKRO_VAT_POINTERS: Array<{ no: number; rate: number; name: string }> = [
  { no: 1, rate: 0, name: "YOK" },
  { no: 2, rate: 1, name: "KDV %1" },
  { no: 3, rate: 10, name: "KDV %10" },
  { no: 4, rate: 20, name: "KDV %20" },
];

/**
 * VergiListesiV2 as a live Mikro answers it (judge: src/mikro/judge/live-shapes.ts "vergi-listesi"): rates
 * as floats, and uninitialised rows with an empty name or a denormal rate between the real ones.
 */
export const MIKRO_VAT_LIST: Array<{ vergiSiraNo: number; vergiAdi: string; vergiOrani: number }> = [
  { vergiSiraNo: 0, vergiAdi: "", vergiOrani: 4.6e-322 },
  { vergiSiraNo: 1, vergiAdi: "YOK", vergiOrani: 0 },
  { vergiSiraNo: 2, vergiAdi: "KDV %1", vergiOrani: 1.0000000000000002 },
  { vergiSiraNo: 3, vergiAdi: "KDV %10", vergiOrani: 9.9999999999 },
  { vergiSiraNo: 4, vergiAdi: "KDV %20", vergiOrani: 19.999999999 },
  { vergiSiraNo: 5, vergiAdi: "", vergiOrani: 0 },
  { vergiSiraNo: 6, vergiAdi: "", vergiOrani: 2.5e-320 },
];

export const vatPointer = (rate: number): number => MIKRO_VAT_POINTERS.find((v) => v.rate === rate)?.no ?? 4;

/** Summary-row movement kinds that carry value differences, not quantities (excluded from stock). */
export const VALUE_ONLY_KINDS = new Set([9, 15]);

/** Table → its columns, in Mikro's names. */
export const MIKRO_TABLES: Record<string, string[]> = {
  FIRMALAR: ["fir_sirano", "fir_unvan", "fir_vergi_daire", "fir_vergi_no"],
  STOKLAR: [
    "sto_Guid",
    "sto_kod",
    "sto_isim",
    "sto_kisa_ismi",
    "sto_birim1_ad",
    "sto_anagrup_kod",
    "sto_altgrup_kod",
    "sto_marka_kodu",
    "sto_model_kodu",
    "sto_perakende_vergi",
    "sto_toptan_vergi",
    "sto_pasif_fl",
    "sto_webe_gonderilecek_fl",
    "sto_create_date",
    "sto_lastup_date",
  ],
  BARKOD_TANIMLARI: ["bar_Guid", "bar_kodu", "bar_stokkodu", "bar_birimpntr", "bar_lastup_date"],
  STOK_ANA_GRUPLARI: ["san_kod", "san_isim", "san_lastup_date"],
  STOK_ALT_GRUPLARI: ["sta_kod", "sta_isim", "sta_ana_grup_kod", "sta_lastup_date"],
  STOK_MARKALARI: ["mrk_kod", "mrk_ismi"],
  DEPOLAR: ["dep_no", "dep_adi", "dep_tipi"],
  STOK_SATIS_FIYAT_LISTE_TANIMLARI: ["sfl_sirano", "sfl_aciklama", "sfl_kdvdahil", "sfl_doviz"],
  STOK_SATIS_FIYAT_LISTELERI: [
    "sfiyat_Guid",
    "sfiyat_stokkod",
    "sfiyat_listesirano",
    "sfiyat_deposirano",
    "sfiyat_fiyati",
    "sfiyat_doviz",
    "sfiyat_lastup_date",
  ],
  // Keyed by firm, branch, code, cost centre, project, depot, fiscal year, period and movement kind:
  // several rows per (code, depot).
  STOK_HAREKETLERI_OZET: [
    "sho_RECno",
    "sho_firmano",
    "sho_subeno",
    "sho_StokKodu",
    "sho_SrmMerkezi",
    "sho_ProjeKodu",
    "sho_Depo",
    "sho_MaliYil",
    "sho_Donem",
    "sho_HareketCins",
    "sho_GirisNormal",
    "sho_GirisIade",
    "sho_CikisNormal",
    "sho_CikisIade",
  ],
  STOK_HAREKETLERI: [
    "sth_Guid",
    "sth_stok_kod",
    "sth_tarih",
    "sth_tip",
    "sth_evraktip",
    "sth_evrakno_seri",
    "sth_evrakno_sira",
    "sth_satirno",
    "sth_giris_depo_no",
    "sth_cikis_depo_no",
    "sth_miktar",
    "sth_tutar",
    "sth_vergi",
    "sth_vergi_pntr",
    "sth_cari_kodu",
    "sth_sip_uid",
    "sth_fat_uid",
    "sth_lastup_date",
  ],
  SIPARISLER: [
    "sip_Guid",
    "sip_tarih",
    "sip_teslim_tarih",
    "sip_tip",
    "sip_cins",
    "sip_evrakno_seri",
    "sip_evrakno_sira",
    "sip_satirno",
    "sip_belgeno",
    "sip_belge_tarih",
    "sip_musteri_kod",
    "sip_stok_kod",
    "sip_b_fiyat",
    "sip_miktar",
    "sip_birim_pntr",
    "sip_teslim_miktar",
    "sip_tutar",
    "sip_vergi_pntr",
    "sip_vergi",
    "sip_depono",
    "sip_aciklama",
    "sip_create_date",
    "sip_lastup_date",
  ],
  CARI_HESAPLAR: [
    "cari_Guid",
    "cari_kod",
    "cari_unvan1",
    "cari_unvan2",
    "cari_vdaire_adi",
    "cari_vdaire_no",
    "cari_EMail",
    "cari_CepTel",
    "cari_create_date",
    "cari_lastup_date",
  ],
  CARI_HESAP_ADRESLERI: [
    "adr_Guid",
    "adr_cari_kod",
    "adr_adres_no",
    "adr_cadde",
    "adr_ilce",
    "adr_il",
    "adr_ulke",
    "adr_posta_kodu",
    "adr_tel_no1",
  ],
  CARI_HESAP_HAREKETLERI: [
    "cha_Guid",
    "cha_evrak_tip",
    "cha_evrakno_seri",
    "cha_evrakno_sira",
    "cha_tarihi",
    "cha_kod",
    "cha_meblag",
    "cha_aratoplam",
    "cha_lastup_date",
  ],
};
