/**
 * A sales order its channel cancelled, removed from Mikro with SiparisSilV2 (issue 37). Sources: Mikro's
 * API index (apidocs.mikro.com.tr, Sipariş › SiparisSilV2: "kayıtlı Sipariş ile ilgili evrak silme") and a
 * Postman collection digest (`Mikro.evraklar[].satirlar[]` inside the Mikro block, like SiparisKaydetV2).
 * Inferred: the document is named by `sip_evrakno_seri` + `sip_evrakno_sira` on its first line, as the
 * inter-depot delete's page says ("evrak seri ve sıra numarası ile evrak silme").
 */

import { type MikroApi, num, sqlString, str } from "./api";

/** Removes the order written under our reference; `absent` when Mikro holds none (already removed). */
export async function cancelMikroOrder(api: MikroApi, ref: string): Promise<"cancelled" | "absent"> {
  const rows = await api.sql(
    `SELECT TOP 1 sip_evrakno_seri, sip_evrakno_sira FROM SIPARISLER WHERE sip_belgeno = ${sqlString(ref)}`,
  );
  const first = rows[0];
  if (!first) return "absent";
  const satirlar = [
    { sip_evrakno_seri: str(first.sip_evrakno_seri), sip_evrakno_sira: num(first.sip_evrakno_sira) },
  ];
  await api.call("SiparisSilV2", "write", { evraklar: [{ satirlar }] }, { inner: true });
  return "cancelled";
}
