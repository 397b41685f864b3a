/**
 * The corpus of the read-only decision: hostile texts built as payloads × carriers (each trick meets
 * each payload) plus hand-written cases, and real-world SELECTs of the ERPs we serve (table names from
 * partner-apis/erps.md: Logo, Netsis, Mikro, Nebim V3, Zirve, ETA on SQL Server; Wolvox on Firebird).
 */

import type { SqlDialect } from "../sdk/sql";

/** Statements that write, run code, end the transaction or reach out (SQL Server). */
const MSSQL_PAYLOADS = [
  "DELETE FROM STOK",
  "delete STOK where 1=1",
  "UPDATE STOK SET FIYAT = 0",
  "INSERT INTO STOK (KOD) VALUES ('X')",
  "MERGE STOK AS t USING (SELECT 1 AS K) AS s ON t.K = s.K WHEN MATCHED THEN DELETE",
  "DROP TABLE STOK",
  "TRUNCATE TABLE STOK",
  "ALTER TABLE STOK ADD X INT",
  "CREATE TABLE T (A INT)",
  "EXEC xp_cmdshell 'dir'",
  "EXECUTE sp_configure 'xp_cmdshell', 1",
  "EXEC('DELETE FROM STOK')",
  "xp_cmdshell 'whoami'",
  "WAITFOR DELAY '00:00:10'",
  "SHUTDOWN WITH NOWAIT",
  "DECLARE @x INT",
  "SET NOCOUNT ON",
  "BACKUP DATABASE LOGODB TO DISK = 'c:\\x.bak'",
  "DBCC CHECKDB",
  "GRANT SELECT ON STOK TO guest",
  "COMMIT",
  "ROLLBACK TRAN",
  "BEGIN TRAN",
  "RAISERROR('x', 16, 1)",
  "SELECT * INTO #t FROM STOK",
  "USE master",
  "KILL 52",
  "RECONFIGURE",
  "BULK INSERT STOK FROM 'c:\\x.csv'",
] as const;

/** The same for Firebird 3. */
const FIREBIRD_PAYLOADS = [
  "DELETE FROM STOK",
  "delete from stok where blkodu > 0",
  "UPDATE STOK SET STOK_ADI = ''",
  "INSERT INTO STOK (BLKODU) VALUES (1)",
  "UPDATE OR INSERT INTO STOK (BLKODU) VALUES (1) MATCHING (BLKODU)",
  "MERGE INTO STOK t USING RDB$DATABASE s ON 1 = 1 WHEN MATCHED THEN DELETE",
  "DROP TABLE STOK",
  "RECREATE TABLE STOK (A INT)",
  "ALTER TABLE STOK ADD X INT",
  "EXECUTE BLOCK AS BEGIN DELETE FROM STOK; END",
  "EXECUTE PROCEDURE SP_SIL",
  "EXECUTE STATEMENT 'DELETE FROM STOK'",
  "SET GENERATOR GEN_STOK TO 0",
  "COMMIT",
  "ROLLBACK",
  "SET TRANSACTION READ WRITE",
  "GRANT ALL ON STOK TO PUBLIC",
  "CREATE USER X PASSWORD 'y'",
  "COMMENT ON TABLE STOK IS 'x'",
  "DELETE FROM STOK RETURNING BLKODU",
  "SELECT GEN_ID(GEN_STOK, 1) FROM RDB$DATABASE",
  "SELECT NEXT VALUE FOR GEN_STOK FROM RDB$DATABASE",
  "SELECT RDB$SET_CONTEXT('USER_SESSION', 'a', 'b') FROM RDB$DATABASE",
  "SELECT * FROM STOK WITH LOCK",
  "SELECT * FROM STOK FOR UPDATE",
  "SELECT * FROM SP_STOK_SIL(1)",
  "DECLARE EXTERNAL FUNCTION F RETURNS INT BY VALUE ENTRY_POINT 'f' MODULE_NAME 'm'",
] as const;

const BASE = "SELECT KOD AS sku, AD AS name FROM STOK";

/** Ways to put a payload behind or inside a read. */
const CARRIERS: Array<[string, (p: string) => string]> = [
  ["semicolon", (p) => `${BASE}; ${p}`],
  ["no separator", (p) => `${BASE} ${p}`],
  ["comment opener in a literal", (p) => `SELECT KOD AS sku, '/*' AS name FROM STOK ${p} SELECT '*/' AS x`],
  ["quote in a block comment", (p) => `${BASE} /* ' */ ${p} /* ' */`],
  ["quote in a line comment", (p) => `${BASE} -- it's\n${p}`],
  ["doubled quote", (p) => `SELECT 'x''' AS sku FROM STOK ${p} --'`],
  ["national literal", (p) => `SELECT N'Ürün''ün' AS name FROM STOK ${p}`],
  ["quoted name with a quote", (p) => `SELECT "a""'" FROM STOK ${p}`],
  ["write in a CTE", (p) => `WITH x AS (${p}) SELECT * FROM x`],
  ["write in a derived table", (p) => `SELECT * FROM (${p}) AS t`],
  ["write in a subquery", (p) => `SELECT KOD FROM STOK WHERE KOD IN (${p})`],
  ["after a UNION", (p) => `${BASE} UNION ALL ${p}`],
  ["CRLF", (p) => `${BASE}\r\n${p}`],
  ["lone CR ends the comment for some", (p) => `${BASE} -- x\r${p}`],
  ["line separator", (p) => `${BASE} -- x\u2028${p}`],
  ["nested block comment", (p) => `${BASE} /* /* */ ${p} */`],
  ["line comment inside a block", (p) => `${BASE} /* -- */ ${p}`],
  ["fullwidth semicolon", (p) => `${BASE}\uff1b${p}`],
  ["zero-width space", (p) => `${BASE}\u200b${p}`],
  ["lower case", (p) => `${BASE.toLowerCase()} ${p.toLowerCase()}`],
  ["Cyrillic look-alike", (p) => `${BASE} ${p.replace(/E/, "\u0415").replace(/e/, "\u0435")}`],
];

/** What has no payload × carrier form. */
const MSSQL_SPECIAL = [
  "SELECT KOD AS sku, '/*' AS name FROM STOK DELETE FROM STOK SELECT '*/' AS x",
  "SELECT * FROM OPENQUERY(LINKED, 'DELETE FROM STOK')",
  "SELECT * FROM OPENROWSET('SQLNCLI', 'Server=x;Trusted_Connection=yes;', 'EXEC sp_who')",
  "SELECT * FROM OPENDATASOURCE('SQLNCLI', 'Data Source=x').db.dbo.STOK",
  "SELECT * FROM LINKED.LOGODB.dbo.LG_001_ITEMS",
  "SELECT * FROM [LINKED].[LOGODB].[dbo].[LG_001_ITEMS]",
  "SELECT * FROM LINKED..dbo.LG_001_ITEMS",
  "SELECT * FROM dbo.fn_StokSil(1)",
  "SELECT * FROM STOK CROSS APPLY dbo.fnYaz(STOK.KOD) f",
  "SELECT NEXT VALUE FOR dbo.SiraNo",
  "SELECT * FROM STOK WITH (UPDLOCK)",
  "SELECT * FROM STOK WITH (XLOCK, ROWLOCK)",
  "SELECT * FROM STOK WITH (TABLOCKX)",
  "SELECT 'abc FROM STOK",
  "SELECT [abc FROM STOK",
  "SELECT 1 FROM STOK /* unterminated",
  "SELECT {fn NOW()} FROM STOK",
  "SELECT 1 FROM STOK `x`",
  "SELECT sp_x(1) FROM STOK",
  "SELECT KOD FROM STOK FOR UPDATE",
  "SELECT KOD FROM STOK OUTPUT INSERTED.KOD",
  "SELECT 1 AS a IF 1 = 1 SELECT 2",
  "SELECT 1 AS a WHILE 1 = 1 SELECT 2",
  "DECLARE @s NVARCHAR(100) = N'DELETE FROM STOK' EXEC sp_executesql @s",
  "WITH a AS (SELECT 1 AS x) SELECT * FROM a WITH b AS (SELECT 2 AS y) SELECT * FROM b",
  "WITH XMLNAMESPACES ('u' AS n) SELECT 1 AS x",
  "SELECT 1 AS x; SELECT 2 AS y",
  "SELECT 1 AS x SELECT 2 AS y",
  "(SELECT 1 AS x) SELECT 2 AS y",
  "SЕLECT KOD FROM STOK",
  "ＳＥＬＥＣＴ KOD FROM STOK",
  "SELECT KOD FROM STOK WHERE KOD = 1 ＵＮＩＯＮ SELECT 2",
  "SELECT KOD\u00a0FROM STOK",
  "SELECT KOD FROM STOK\u202e",
  "SELECT KOD FROM ЅТОК",
  "SELECT @@VERSION AS v INTO ##x",
  "GO",
  "",
  "   ;  ",
  "-- only a comment",
] as const;

const FIREBIRD_SPECIAL = [
  "WITH x AS (UPDATE STOK SET STOK_ADI = 'a' RETURNING BLKODU) SELECT * FROM x",
  "WITH x AS (DELETE FROM STOK RETURNING BLKODU) SELECT * FROM x",
  "SELECT q'{'}' AS a FROM STOK DELETE FROM STOK --'",
  "SELECT q'!it's!' AS a FROM STOK; DELETE FROM STOK",
  "SELECT q'{never closed FROM STOK",
  "SELECT 'abc FROM STOK",
  'SELECT "abc FROM STOK',
  "SELECT * FROM STOK_GETIR(1)",
  "SELECT * FROM STOK s JOIN SP_FIYAT(s.BLKODU) f ON 1 = 1",
  "SELECT * FROM STOK, SP_FIYAT(1)",
  "EXECUTE BLOCK RETURNS (A INT) AS BEGIN DELETE FROM STOK; SUSPEND; END",
  "SELECT * FROM STOK WHERE 1 = 1 WITH LOCK",
  "SELECT GEN_ID(G, 0) FROM RDB$DATABASE",
  "SELECT 1 FROM RDB$DATABASE /* /* */ DELETE FROM STOK */",
  "SELECT 1 FROM RDB$DATABASE -- x\rDELETE FROM STOK",
  "SЕLECT 1 FROM RDB$DATABASE",
  "SELECT 1 FROM RDB$DATABASE\u037e DELETE FROM STOK",
  "SELECT 1 FROM RDB$DATABASE\u2029",
  "SELECT 1 FROM RDB$DATABASE UNION SELECT GEN_ID(G, 1) FROM RDB$DATABASE",
  "SET TERM ^ ;",
] as const;

/** Real-world reads (3P integrations' queries, erps.md table names): all must pass. */
export const MSSQL_REAL = [
  // Logo Tiger / Go
  "SELECT I.LOGICALREF, I.CODE, I.NAME, I.VAT, I.STGRPCODE FROM LG_001_ITEMS I WITH (NOLOCK) WHERE I.ACTIVE = 0 AND I.CARDTYPE <> 22",
  "SELECT S.STOCKREF, S.INVENNO, SUM(S.ONHAND) AS ONHAND FROM LV_001_01_STINVTOT S WHERE S.INVENNO <> -1 GROUP BY S.STOCKREF, S.INVENNO",
  "SELECT P.CARDREF, P.PRICE, P.CURRENCY FROM LG_001_PRCLIST P WHERE P.PTYPE = 2 AND P.ACTIVE = 0 AND GETDATE() BETWEEN P.BEGDATE AND P.ENDDATE",
  "SELECT W.NR, W.NAME FROM LOGODB.dbo.L_CAPIWHOUSE W WHERE W.FIRMNR = 1",
  "SELECT I.CODE, B.BARCODE FROM LG_001_ITEMS I LEFT JOIN LG_001_UNITBARCODE B ON B.ITEMREF = I.LOGICALREF AND B.LINENR = 1",
  "SELECT TOP 100 I.CODE, M.DESCR AS MARKA FROM LG_001_ITEMS I LEFT OUTER JOIN LG_001_MARK M ON M.LOGICALREF = I.MARKREF ORDER BY I.CODE",
  "WITH F AS (SELECT CARDREF, PRICE, ROW_NUMBER() OVER (PARTITION BY CARDREF ORDER BY PRIORITY, BEGDATE DESC) AS RN FROM LG_001_PRCLIST WHERE PTYPE = 2) SELECT I.CODE, F.PRICE FROM LG_001_ITEMS I JOIN F ON F.CARDREF = I.LOGICALREF AND F.RN = 1",
  "SELECT O.FICHENO AS REF, L.LINENO_ AS SATIR FROM LG_001_01_ORFICHE O JOIN LG_001_01_ORFLINE L ON L.ORDFICHEREF = O.LOGICALREF WHERE O.DOCODE = @ref",
  "SELECT I.CODE, ISNULL(T.ONHAND, 0) AS MIKTAR FROM LG_001_ITEMS I LEFT JOIN LG_001_01_GNTOTST T ON T.STOCKREF = I.LOGICALREF AND T.INVENNO = -1",
  "SELECT C.CODE, C.DEFINITION_ FROM LG_001_CLCARD C WHERE C.CODE LIKE N'120.%' -- müşteriler (alıcılar)",
  // Netsis
  "SELECT STOK_KODU, STOK_ADI, GRUP_KODU, KOD_1, SATIS_FIAT1, OLCU_BR1 FROM TBLSTSABIT WITH (NOLOCK)",
  "SELECT STOK_KODU, DEPO_KODU, SUM(TOP_GIRIS_MIK - TOP_CIKIS_MIK) AS BAKIYE FROM TBLSTOKPH WHERE DEPO_KODU <> 0 GROUP BY STOK_KODU, DEPO_KODU",
  "SELECT S.STOK_KODU, K.GRUP_ISIM FROM TBLSTSABIT S LEFT JOIN TBLSTOKKOD1 K ON K.GRUP_KOD = S.KOD_1",
  "SELECT FISNO, STOK_KODU, STHAR_GCMIK FROM TBLSIPATRA WHERE FISNO = @ref",
  "SELECT STOK_KODU, STOK_ADI FROM TBLSTSABIT (NOLOCK) WHERE STOK_ADI NOT LIKE '%SİLİNDİ%'",
  "SELECT CARI_KOD, CARI_ISIM FROM TBLCASABIT WHERE CARI_TIP = 'A' ORDER BY CARI_KOD OFFSET 0 ROWS FETCH NEXT 500 ROWS ONLY",
  // Mikro
  "SELECT sto_kod, sto_isim, sto_anagrup_kod, sto_marka_kodu, sto_birim1_ad, sto_perakende_vergi FROM STOKLAR WHERE sto_webe_gonderilecek_fl = 1",
  "SELECT sfiyat_stokkod, sfiyat_listesirano, sfiyat_fiyati, sfiyat_doviz FROM STOK_SATIS_FIYAT_LISTELERI WHERE sfiyat_deposirano = 0",
  "SELECT dep_no, dep_adi FROM DEPOLAR",
  "SELECT s.sto_kod, d.dep_no, dbo.fn_DepodakiMiktar(s.sto_kod, d.dep_no, GETDATE()) AS miktar FROM STOKLAR s CROSS JOIN DEPOLAR d",
  "SELECT bar_stokkodu, bar_kodu FROM BARKOD_TANIMLARI WHERE bar_birimpntr = 1",
  "SELECT sip_evrakno_seri, sip_evrakno_sira, sip_satirno FROM SIPARISLER WHERE sip_belgeno = @ref",
  "SELECT sto_kod AS [Stok Kodu], sto_isim AS [Stok Adı] FROM dbo.STOKLAR WHERE sto_lastup_date > DATEADD(DAY, -1, GETDATE())",
  // Nebim V3
  "SELECT i.ItemCode, d.ItemDescription FROM cdItem i JOIN cdItemDesc d ON d.ItemTypeCode = i.ItemTypeCode AND d.ItemCode = i.ItemCode AND d.LangCode = 'TR' WHERE i.ItemTypeCode = 1",
  "SELECT b.Barcode, b.ItemCode, b.ColorCode, b.ItemDim1Code FROM prItemBarcode b WHERE b.BarcodeTypeCode = 'EAN13'",
  "SELECT p.ItemCode, p.Price, p.DocCurrencyCode FROM prItemBasePrice p WHERE p.BasePriceCode = 1 AND p.CountryCode = 'TR'",
  "SELECT ItemCode, CAST(SUM(InventoryQty1) AS DECIMAL(18, 2)) AS Qty FROM (SELECT ItemCode, InventoryQty1 FROM trStock WHERE WarehouseCode = '1-1-1') s GROUP BY ItemCode",
  // Zirve, ETA and generic
  "SELECT CRK, UNVAN FROM CARIGEN WHERE CRK LIKE '120%'",
  "SELECT I.P_ID, I.BELGE_NO FROM IRSALIYE I WHERE I.TUR = 70 AND I.BELGE_NO = @ref",
  "SELECT STKKOD, STKGRUPKOD, STKBAKIYE FROM STKKART WHERE STKBAKIYE > 0",
  "SELECT STKFIYSTKKOD, STKFIYNO, STKFIYISKYUZ1, STKFIYDOVKOD FROM STKFIYAT",
  "SELECT KOD, CASE WHEN DURUM = 'DELETE' THEN 0 ELSE 1 END AS AKTIF FROM STOK -- 'DELETE' yalnızca bir değer",
  "SELECT KOD, AD FROM STOK /* Ürün listesi: Mikro'dan aktarılan */ WHERE PASIF = 0",
  "SELECT KOD, STRING_AGG(BARKOD, ',') AS BARKODLAR FROM STOK_BARKOD GROUP BY KOD",
  "SELECT s.value AS etiket FROM STOK CROSS APPLY STRING_SPLIT(ETIKETLER, ',') s",
  "SELECT KOD, FORMAT(FIYAT, 'N2', 'tr-TR') AS FIYAT FROM STOK WHERE KOD NOT IN (SELECT KOD FROM STOK_PASIF)",
  "SELECT KOD FROM STOK WHERE EXISTS (SELECT 1 FROM STOK_DEPO D WHERE D.KOD = STOK.KOD AND D.MIKTAR > 0)",
  "SELECT ÜRÜN_KODU, ÜRÜN_ADI FROM ÜRÜNLER",
  "WITH RECURSIVE_FREE AS (SELECT 1 AS N UNION ALL SELECT 2) SELECT N FROM RECURSIVE_FREE;",
] as const;

export const FIREBIRD_REAL = [
  // Akınsoft Wolvox
  "SELECT BLKODU, STOKKODU, STOK_ADI, BARKODU, BIRIMI, KDV_ORANI, GRUBU, MARKASI FROM STOK WHERE AKTIF = 1 AND WEBDE_GORUNSUN = 1",
  "SELECT S.STOKKODU, H.DEPO_ADI, SUM(CASE WHEN H.TUTAR_TURU = 0 THEN H.MIKTARI ELSE -H.MIKTARI END) AS MIKTAR FROM STOKHR H JOIN STOK S ON S.BLKODU = H.BLSTKODU WHERE H.SILINDI = 0 GROUP BY S.STOKKODU, H.DEPO_ADI",
  "SELECT S.STOKKODU, F.FIYAT_NO, F.FIYATI, F.TANIMI FROM STOK_FIYAT F JOIN STOK S ON S.BLKODU = F.BLSTKODU",
  "SELECT DEPO_ADI FROM DEPO",
  "SELECT FIRST 100 SKIP 0 BLKODU, STOKKODU FROM STOK ORDER BY BLKODU",
  "SELECT BLKODU, STOKKODU FROM STOK ORDER BY BLKODU ROWS 1 TO 500",
  "WITH H AS (SELECT BLSTKODU, SUM(IIF(TUTAR_TURU = 0, MIKTARI, -MIKTARI)) AS M FROM STOKHR GROUP BY BLSTKODU) SELECT S.STOKKODU, COALESCE(H.M, 0) AS MIKTAR FROM STOK S LEFT JOIN H ON H.BLSTKODU = S.BLKODU",
  "SELECT STOKKODU, CAST(STOK_ADI AS VARCHAR(200) CHARACTER SET UTF8) AS AD FROM STOK",
  "SELECT STOKKODU, EXTRACT(YEAR FROM DEGISTIRME_TARIHI) AS YIL, SUBSTRING(STOK_ADI FROM 1 FOR 40) AS KISA FROM STOK",
  "SELECT BLKODU, TRIM(LEADING '0' FROM STOKKODU) AS KOD FROM STOK WHERE STOKKODU STARTING WITH 'KLM'",
  "SELECT STOKKODU || ' - ' || STOK_ADI AS AD FROM STOK WHERE STOK_ADI CONTAINING 'kalem'",
  "SELECT q'{Mikro'nun kodu}' AS ACIKLAMA, STOKKODU FROM STOK",
  "SELECT STOKKODU FROM STOK WHERE STOK_ADI LIKE '%;%' -- noktalı virgül bir değer",
  "SELECT REF FROM WEB_SIPARIS WHERE REF = @ref",
  "SELECT \"Stok Kodu\", \"Ad\" FROM \"STOK_GORUNUM\"",
  "SELECT CARI_KODU, TICARI_UNVANI FROM CARI WHERE BLKODU > 0",
  "SELECT S.STK_ID, S.STK_KOD, CASE WHEN S.PASIF = 1 THEN 0 ELSE 1 END AS AKTIF FROM STOK s",
  "SELECT A.STOKKODU FROM STOK A WHERE NOT EXISTS (SELECT 1 FROM STOKHR B WHERE B.BLSTKODU = A.BLKODU AND B.SILINDI = 1)",
  "SELECT R.RDB$RELATION_NAME FROM RDB$RELATIONS R WHERE R.RDB$SYSTEM_FLAG = 0",
  "SELECT STOKKODU, LIST(BARKODU, ',') AS BARKODLAR FROM STOK_BARKOD GROUP BY STOKKODU",
] as const;

/** Every hostile text of a dialect, without repeats. */
export function hostile(dialect: SqlDialect): string[] {
  const payloads = dialect === "mssql" ? MSSQL_PAYLOADS : FIREBIRD_PAYLOADS;
  const special = dialect === "mssql" ? MSSQL_SPECIAL : FIREBIRD_SPECIAL;
  const out = new Set<string>(special);
  for (const p of payloads) {
    out.add(p);
    for (const [, carry] of CARRIERS) out.add(carry(p));
  }
  return [...out];
}

