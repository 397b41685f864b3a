/**
 * Mikro customers (CariKaydetV2), sales orders (SiparisKaydetV2) and the invoices issued for them. Bodies
 * follow the live request shapes of the judge (./judge/requests.ts). Our reference (the shop order no)
 * goes into `sip_belgeno`; after a write the order is found by it, because the key of the new document in
 * the live answer is not known for sure.
 */

import { message } from "@ep/contracts";
import type { CreateSalesOrderInput, ErpCustomerRef, ErpOrderRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Customer, Invoice } from "../sdk/model";
import { turkishDate } from "../sdk/turkish-time";
import { customerCodeOf, round2 } from "../sdk/util";
import { type MikroApi, num, sqlString, str, vatPointerOf } from "./api";

/** "dd.MM.yyyy", the Turkish calendar day of an instant (sip_tarih). */
const trDate = (iso: string) => turkishDate(Date.parse(iso)).split("-").reverse().join(".");

export class MikroOrders {
  constructor(private readonly api: MikroApi) {}

  /** Deterministic cari code for our customer reference (≤ 25 characters). */
  customerCode(ref: string): string {
    return customerCodeOf(ref, this.api.cfg.customerPrefix ?? "120.W.", 25);
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerCode(c.ref);
    const found = await this.api.sql(
      `SELECT cari_kod FROM CARI_HESAPLAR WHERE cari_kod = ${sqlString(code)}`,
    );
    if (found.length > 0) return { code, existed: true };
    const a = c.billingAddress;
    const title = c.companyName ?? `${c.firstName} ${c.lastName}`.trim();
    // adr_posta_kodu is a numeric column in Mikro (0 = none).
    const postal = Number.parseInt((a.postalCode ?? "").replace(/\D/g, ""), 10);
    try {
      await this.api.call(
        "CariKaydetV2",
        "write",
        {
          cariler: [
            {
              cari_kod: code,
              cari_unvan1: title.slice(0, 50),
              cari_unvan2: c.companyName ? `${c.firstName} ${c.lastName}`.trim().slice(0, 50) : "",
              cari_vdaire_adi: c.taxOffice ?? "",
              cari_vdaire_no: c.taxNumber ?? "",
              cari_EMail: c.email ?? "",
              cari_CepTel: c.phone ?? a.phone ?? "",
              adres: [
                {
                  adr_cadde: [a.line1, a.line2].filter(Boolean).join(" "),
                  adr_ilce: a.district ?? "",
                  adr_il: a.city,
                  adr_ulke: a.country,
                  adr_posta_kodu: Number.isFinite(postal) ? postal : 0,
                  adr_tel_no1: a.phone ?? "",
                },
              ],
            },
          ],
        },
        { inner: true },
      );
    } catch (e) {
      if (e instanceof ConnectorError && e.reason === "conflict") return { code, existed: true };
      throw e;
    }
    return { code, existed: false };
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const rows = await this.api.sql(
      `SELECT sip_Guid, sip_evrakno_seri, sip_evrakno_sira, sip_satirno FROM SIPARISLER WHERE sip_belgeno = ${sqlString(ref)} ORDER BY sip_satirno`,
    );
    const first = rows[0];
    if (!first) return null;
    return {
      documentId: `${str(first.sip_evrakno_seri)}-${num(first.sip_evrakno_sira)}`,
      ref,
      existed: true,
      lineIds: rows.map((r) => str(r.sip_Guid)),
    };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const vat = await this.api.vatTable();
    const pointer = (rate: number) => {
      const p = vatPointerOf(vat, rate);
      if (p !== undefined) return p;
      throw new ConnectorError(`mikro: no VAT pointer for ${rate} %`, {
        reason: "config",
        system: "mikro",
        operation: "SiparisKaydetV2",
        itemKeys: [order.orderNo],
        systemMessage: message("connectors.mikroVatRateMissing", { rate, orderNo: order.orderNo }),
        merchantMessage: message("connectors.mikroVatRateMissing", { rate, orderNo: order.orderNo }),
      });
    };
    const series = input.series ?? this.api.cfg.orderSeries ?? "WEB";
    const depot = Number(input.location ?? this.api.cfg.depot ?? "1");
    const date = trDate(order.createdAt);
    const lines = order.lines.map((line) => ({
      sku: line.sku,
      total: line.total,
      qty: line.qty,
      vat: line.vatRate,
    }));
    if (this.api.cfg.shippingStockCode && order.shipping.cost > 0) {
      lines.push({ sku: this.api.cfg.shippingStockCode, total: order.shipping.cost, qty: 1, vat: 20 });
    }
    const satirlar = lines.map((line, i) => {
      const net = round2(line.total / (1 + line.vat / 100));
      return {
        sip_tarih: date,
        sip_teslim_tarih: date,
        sip_tip: "0", // sale ('1' would be a purchase order)
        sip_cins: "0",
        sip_evrakno_seri: series,
        sip_evrakno_sira: 0, // the server numbers the document
        sip_satirno: i,
        sip_belgeno: order.orderNo,
        sip_belge_tarih: date,
        sip_musteri_kod: input.customerCode,
        sip_stok_kod: line.sku,
        sip_b_fiyat: round2(net / line.qty),
        sip_miktar: line.qty,
        sip_birim_pntr: 1,
        sip_teslim_miktar: 0,
        sip_tutar: net,
        sip_vergi_pntr: pointer(line.vat),
        sip_vergi: round2(line.total - net),
        sip_vergisiz_fl: false,
        sip_depono: depot,
        // A marketplace's order names it in the note (its reference carries the channel's prefix too).
        sip_aciklama: `${input.channel ?? "E-ticaret"} sipariş no ${order.orderNo}`,
      };
    });
    try {
      await this.api.call("SiparisKaydetV2", "write", { evraklar: [{ satirlar }] }, { inner: true });
    } catch (e) {
      if (e instanceof ConnectorError) {
        const sku = /^(.+) kodlu stok bulunamadı/.exec(e.systemMessage ?? "")?.[1];
        throw e.with({ itemKeys: sku ? [order.orderNo, sku] : [order.orderNo] });
      }
      throw e;
    }
    // The answer's document key is uncertain (evrakNo / EvrakNo / id): read the order back by our reference.
    const created = await this.findOrderByRef(order.orderNo);
    if (!created) {
      throw new ConnectorError(`mikro SiparisKaydetV2: order ${order.orderNo} accepted but not found`, {
        reason: "bad_response",
        system: "mikro",
        operation: "SiparisKaydetV2",
        itemKeys: [order.orderNo],
        systemMessage: message("connectors.mikroOrderNotFound", { orderNo: order.orderNo }),
        merchantMessage: message("connectors.mikroOrderNotFound", { orderNo: order.orderNo }),
      });
    }
    return { ...created, existed: false };
  }

  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const lines = await this.api.sql(`SELECT sip_Guid FROM SIPARISLER WHERE sip_belgeno = ${sqlString(ref)}`);
    if (lines.length === 0) return [];
    const moves = await this.api.sql(
      `SELECT sth_fat_uid, sth_stok_kod, sth_miktar, sth_tutar, sth_vergi, sth_vergi_pntr, sth_satirno FROM STOK_HAREKETLERI WHERE sth_evraktip = 4 AND sth_sip_uid IN (${lines.map((r) => sqlString(str(r.sip_Guid))).join(", ")}) ORDER BY sth_satirno`,
    );
    const invoiceIds = [...new Set(moves.map((m) => str(m.sth_fat_uid)).filter(Boolean))];
    if (invoiceIds.length === 0) return [];
    const heads = await this.api.sql(
      `SELECT cha_Guid, cha_evrakno_seri, cha_evrakno_sira, cha_tarihi, cha_meblag, cha_aratoplam FROM CARI_HESAP_HAREKETLERI WHERE cha_Guid IN (${invoiceIds.map(sqlString).join(", ")})`,
    );
    const vat = await this.api.vatTable();
    return heads.map((h) => {
      const id = str(h.cha_Guid);
      const own = moves.filter((m) => str(m.sth_fat_uid) === id);
      const gross = num(h.cha_meblag);
      const net = num(h.cha_aratoplam);
      return {
        orderRef: ref,
        number: `${str(h.cha_evrakno_seri)}${String(num(h.cha_evrakno_sira)).padStart(9, "0")}`,
        uuid: id.toLowerCase(),
        date: str(h.cha_tarihi).slice(0, 10),
        currency: "TRY",
        lines: own.map((m) => {
          const qty = num(m.sth_miktar);
          const total = round2(num(m.sth_tutar) + num(m.sth_vergi));
          const net = num(m.sth_tutar);
          return {
            sku: str(m.sth_stok_kod),
            qty,
            unitPrice: qty > 0 ? round2(total / qty) : total,
            // The pointer's rate; failing that, the rate the amounts themselves show.
            vatRate:
              vat.get(num(m.sth_vergi_pntr)) ?? (net > 0 ? Math.round((num(m.sth_vergi) / net) * 100) : 0),
            total,
          };
        }),
        totals: { net, tax: round2(gross - net), gross },
      };
    });
  }
}
