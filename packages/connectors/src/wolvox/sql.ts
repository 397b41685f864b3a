/**
 * Every SQL text the Wolvox connector sends, in one place. Values are `@name` parameters only; table and
 * column names are those of the schema fixture (judge/schema.ts, from a real Wolvox 9 dictionary) and the
 * judge checks each text the contract tests send. Firebird dialect (Wolvox ships Firebird 2.5; `FIRST (n)`,
 * `EXECUTE BLOCK` exist there too).
 */

const PRODUCT_COLUMNS =
  "S.BLKODU, S.STOKKODU, S.STOK_ADI, S.BARKODU, S.BIRIMI, S.KDV_ORANI, S.GRUBU, S.ARA_GRUBU, S.ALT_GRUBU, S.MARKASI, S.AKTIF, S.ANA_STOKKODU, S.DEGISTIRME_TARIHI, S.KAYIT_TARIHI";

/** A page of stock cards on the key; with `since`, only cards changed (or created) since then. */
export function productsPage(withSince: boolean): string {
  return `SELECT FIRST (@size) ${PRODUCT_COLUMNS} FROM STOK S WHERE S.BLKODU > @after${
    withSince ? " AND COALESCE(S.DEGISTIRME_TARIHI, S.KAYIT_TARIHI) >= @since" : ""
  } ORDER BY S.BLKODU`;
}

/** Extra barcodes of the cards in a key range (a card's main barcode is STOK.BARKODU). */
export const BARCODES_OF_RANGE =
  "SELECT B.BLSTKODU, B.BARKODU FROM STOK_BARKOD B WHERE B.BLSTKODU >= @first AND B.BLSTKODU <= @last";

/** The keys of a page of stock cards (stock is summed per page of cards). */
export const CARD_KEYS_PAGE =
  "SELECT FIRST (@size) S.BLKODU FROM STOK S WHERE S.BLKODU > @after ORDER BY S.BLKODU";

/**
 * Quantity per card and warehouse: the signed sum of the card's live movements (TUTAR_TURU 1 = in,
 * else out; the STOKHR_ONINSERT trigger of the real database branches on exactly this), deleted
 * movements (SILINDI = 1) left out.
 */
export const STOCK_OF_RANGE =
  "SELECT S.BLKODU, S.STOKKODU, H.DEPO_ADI, SUM(CASE WHEN H.TUTAR_TURU = 1 THEN H.MIKTARI ELSE 0 - H.MIKTARI END) AS MIKTAR FROM STOK S JOIN STOKHR H ON H.BLSTKODU = S.BLKODU WHERE S.BLKODU > @after AND S.BLKODU <= @last AND COALESCE(H.SILINDI, 0) = 0 GROUP BY S.BLKODU, S.STOKKODU, H.DEPO_ADI";

/** Sales prices (ALIS_SATIS = 2) on the price row's key; with `since`, those changed since then. */
export function pricesPage(withSince: boolean): string {
  return `SELECT FIRST (@size) F.BLKODU, F.FIYAT_NO, F.FIYATI, F.HESAP, F.FIYAT_DEG_TARIHI, S.STOKKODU FROM STOK_FIYAT F JOIN STOK S ON S.BLKODU = F.BLSTKODU WHERE F.BLKODU > @after AND F.ALIS_SATIS = 2${
    withSince ? " AND F.FIYAT_DEG_TARIHI >= @since" : ""
  } ORDER BY F.BLKODU`;
}

export const PRICE_DEFINITIONS =
  "SELECT T.FIYAT_NO, T.TANIMI FROM STOK_FIYAT_TANIM T WHERE T.ALIS_SATIS = 2 ORDER BY T.FIYAT_NO";

export const PRICE_NUMBERS_IN_USE =
  "SELECT DISTINCT F.FIYAT_NO FROM STOK_FIYAT F WHERE F.ALIS_SATIS = 2 ORDER BY F.FIYAT_NO";

export const WAREHOUSES = "SELECT D.DEPO_ADI, D.AKTIF FROM DEPO D ORDER BY D.DEPO_ADI";

/** The group tree as the stock cards use it (GRUBU > ARA_GRUBU > ALT_GRUBU). */
export const GROUPS_IN_USE = "SELECT DISTINCT S.GRUBU, S.ARA_GRUBU, S.ALT_GRUBU FROM STOK S";

export const CONNECTION_PROBE = "SELECT FIRST 1 S.BLKODU, S.STOKKODU FROM STOK S ORDER BY S.BLKODU";

export const ORDER_BY_REF =
  "SELECT S.BLKODU, S.SIPARIS_DURUMU FROM SIPARIS S WHERE S.SIPARIS_NO = @ref AND S.SIPARIS_TURU = 1";

export const CUSTOMER_BY_CODE = "SELECT C.BLKODU, C.CARIKODU FROM CARI C WHERE C.CARIKODU = @code";

export function cardsBySku(count: number): string {
  const list = Array.from({ length: count }, (_, i) => `@sku${i}`).join(", ");
  return `SELECT S.BLKODU, S.STOKKODU, S.BIRIMI FROM STOK S WHERE S.STOKKODU IN (${list})`;
}

/** Block input parameters of the order header, with their Firebird types (no longer than their columns). */
export const ORDER_HEADER_PARAMS: Array<[string, string]> = [
  ["P_REF", "VARCHAR(30)"],
  ["P_TARIH", "TIMESTAMP"],
  ["P_CRKODU", "BIGINT"],
  ["P_CARIKODU", "VARCHAR(30)"],
  ["P_UNVAN", "VARCHAR(250)"],
  ["P_ADSOYAD", "VARCHAR(101)"],
  ["P_VERGINO", "VARCHAR(20)"],
  ["P_VDAIRE", "VARCHAR(250)"],
  ["P_TEL", "VARCHAR(20)"],
  ["P_EPOSTA", "VARCHAR(60)"],
  ["P_ADRES", "VARCHAR(250)"],
  ["P_IL", "VARCHAR(25)"],
  ["P_ILCE", "VARCHAR(25)"],
  ["P_SADRES", "VARCHAR(250)"],
  ["P_SIL", "VARCHAR(25)"],
  ["P_SILCE", "VARCHAR(25)"],
  ["P_ACIKLAMA", "VARCHAR(100)"],
  ["P_SUBE", "VARCHAR(30)"],
  ["P_KAYDEDEN", "VARCHAR(20)"],
  ["P_DEPO", "VARCHAR(30)"],
  ["P_GENEL", "DOUBLE PRECISION"],
  ["P_KDV", "DOUBLE PRECISION"],
  ["P_ARA", "DOUBLE PRECISION"],
  ["P_MIKTAR", "DOUBLE PRECISION"],
  // Counter names of GEN_IDT (TABLE_COUNTERS), as values: the judge allows no literals.
  ["P_GEN_SIP", "VARCHAR(32)"],
  ["P_GEN_HR", "VARCHAR(32)"],
];

/** Per line `i`: the block parameter `L{i}_{name}` and its type. */
export const ORDER_LINE_PARAMS: Array<[string, string]> = [
  ["ST", "BIGINT"],
  ["KOD", "VARCHAR(30)"],
  ["AD", "VARCHAR(250)"],
  ["BIRIM", "VARCHAR(15)"],
  ["MIK", "DOUBLE PRECISION"],
  ["FIY", "DOUBLE PRECISION"],
  ["KDVO", "DOUBLE PRECISION"],
  ["KDVT", "DOUBLE PRECISION"],
  ["NET", "DOUBLE PRECISION"],
  ["TUT", "DOUBLE PRECISION"],
];

/** Statement parameter name of a block parameter (`P_REF` → `@p_ref`). */
export const paramName = (blockName: string) => blockName.toLowerCase();

/**
 * The order as one atomic statement: the header and its lines as a pending received order
 * (SIPARIS_TURU 1 "yurt içi alınan", SIPARIS_DURUMU 1 "Beklemede" — the enum values of the vendor's
 * SDK document), written only when no received order carries our number yet. One transaction: all or
 * nothing, and a retry of an applied block finds the order and writes nothing. Answers the order's
 * BLKODU and whether it already existed. Nothing else is touched: no stock movement, no cari movement.
 *
 * Keys: Wolvox hands out BLKODU from its counter rows in GEN_IDT (`SIPARIS_GEN`, `SIPARISHR_GEN`), so a
 * key is taken above both the table's MAX and the counter, and the counter is advanced to the last key
 * in the same transaction (runtime rule `wolvox.generator-advanced`): Wolvox's own next document then
 * gets the key after ours. A Wolvox user holding the counter row makes our UPDATE wait or fail as a lock
 * conflict (transient, nothing written). A missing counter row is created (numbered from GEN_IDT_GEN).
 */
export function orderBlock(lineCount: number): string {
  const decl = [
    ...ORDER_HEADER_PARAMS.map(([n, t]) => `${n} ${t} = @${paramName(n)}`),
    ...Array.from({ length: lineCount }, (_, i) =>
      ORDER_LINE_PARAMS.map(([n, t]) => `L${i}_${n} ${t} = @${paramName(`L${i}_${n}`)}`),
    ).flat(),
  ].join(",\n  ");
  const lines = Array.from(
    { length: lineCount },
    (_, i) => `    HR = HR + 1;
    INSERT INTO SIPARISHR (BLKODU, BLMASKODU, BLSTKODU, STOKKODU, STOK_ADI, BIRIMI, MIKTARI, MIKTARI_TESLIM, MIKTARI_KALAN, KPB_FIYATI, KDV_ORANI, KDV_TUTARI, KPB_TOPLAM_TUTAR, KPB_KDVLI_TUTAR, KDV_DURUMU, DEPO_ADI, SIRA_NO)
      VALUES (:HR, :ID, :L${i}_ST, :L${i}_KOD, :L${i}_AD, :L${i}_BIRIM, :L${i}_MIK, 0, :L${i}_MIK, :L${i}_FIY, :L${i}_KDVO, :L${i}_KDVT, :L${i}_NET, :L${i}_TUT, 1, :P_DEPO, ${i + 1});`,
  ).join("\n");
  return `EXECUTE BLOCK (
  ${decl}
)
RETURNS (ID BIGINT, EXISTED SMALLINT)
AS
DECLARE VARIABLE HR BIGINT;
DECLARE VARIABLE NXT BIGINT;
BEGIN
  EXISTED = 1;
  SELECT S.BLKODU FROM SIPARIS S WHERE S.SIPARIS_NO = :P_REF AND S.SIPARIS_TURU = 1 INTO :ID;
  IF (ID IS NULL) THEN
  BEGIN
    EXISTED = 0;
    SELECT COALESCE(MAX(M.BLKODU), 0) FROM SIPARIS M INTO :ID;
    SELECT COALESCE(MAX(G.GEN_VALUE), 0) FROM GEN_IDT G WHERE G.GEN_NAME = :P_GEN_SIP INTO :NXT;
    IF (NXT > ID) THEN ID = NXT;
    ID = ID + 1;
    SELECT COALESCE(MAX(H.BLKODU), 0) FROM SIPARISHR H INTO :HR;
    SELECT COALESCE(MAX(G.GEN_VALUE), 0) FROM GEN_IDT G WHERE G.GEN_NAME = :P_GEN_HR INTO :NXT;
    IF (NXT > HR) THEN HR = NXT;
    INSERT INTO SIPARIS (BLKODU, SIPARIS_TURU, SIPARIS_DURUMU, SIPARIS_NO, TARIHI, BLCRKODU, CARIKODU, TICARI_UNVANI, ADI_SOYADI, VERGI_NO, VERGI_DAIRESI, TEL1, E_MAIL, ADRESI, ILI, ILCESI, SEVK_ADRESI, SEVK_ILI, SEVK_ILCESI, ACIKLAMA, SUBE_KODU, KAYDEDEN, KAYIT_TARIHI, KDV_DURUMU, DOVIZ_KULLAN, TOPLAM_ARA_KPB, TOPLAM_KDV_KPB, TOPLAM_GENEL_KPB, MIKTAR1_TOPLAM, SILINDI)
      VALUES (:ID, 1, 1, :P_REF, :P_TARIH, :P_CRKODU, :P_CARIKODU, :P_UNVAN, :P_ADSOYAD, :P_VERGINO, :P_VDAIRE, :P_TEL, :P_EPOSTA, :P_ADRES, :P_IL, :P_ILCE, :P_SADRES, :P_SIL, :P_SILCE, :P_ACIKLAMA, :P_SUBE, :P_KAYDEDEN, CURRENT_TIMESTAMP, 1, 0, :P_ARA, :P_KDV, :P_GENEL, :P_MIKTAR, 0);
${lines}
    UPDATE GEN_IDT G SET G.GEN_VALUE = :ID WHERE G.GEN_NAME = :P_GEN_SIP;
    IF (ROW_COUNT = 0) THEN
      INSERT INTO GEN_IDT (BLKODU, GEN_NAME, GEN_VALUE) VALUES (GEN_ID(GEN_IDT_GEN, 1), :P_GEN_SIP, :ID);
    UPDATE GEN_IDT G SET G.GEN_VALUE = :HR WHERE G.GEN_NAME = :P_GEN_HR;
    IF (ROW_COUNT = 0) THEN
      INSERT INTO GEN_IDT (BLKODU, GEN_NAME, GEN_VALUE) VALUES (GEN_ID(GEN_IDT_GEN, 1), :P_GEN_HR, :HR);
  END
  SUSPEND;
END`;
}
