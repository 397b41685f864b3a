/**
 * Netsis customer accounts (`ARPs/`: CariTemelBilgi = ARPsPrimInfo, CariEkBilgi = ARPsSuppInfo) and
 * sales orders (`ItemSlips/` with FaturaTip = Tip = JTFaturaTip.ftSSip, the customer order). Our
 * reference (the shop's order number) goes into the header's `EKACK1` (ek açıklama 1) and is how an
 * order is found again (`ItemSlips/MainInfo/?q=Tip = 7 AND EKACK1 = '…'`) before any write and after an
 * unanswered one, so an order is written once.
 */

import { createHash } from "node:crypto";
import type { CreateSalesOrderInput, ErpCustomerRef, ErpOrderRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Customer, Invoice } from "../sdk/model";
import { turkishDateTime } from "../sdk/turkish-time";
import { asciiCode, round2 } from "../sdk/util";
import { isObj, type NetsisApi, type NetsisRow, num, sqlText, str } from "./api";
import { FATURA_TIP } from "./judge/models";

/** Turkish wall-clock time of an ISO instant, as Newtonsoft writes a DateTime without offset ("yyyy-MM-ddTHH:mm:ss"). */
const trDateTime = (iso: string) => turkishDateTime(Date.parse(iso)).slice(0, 19).replace(" ", "T");

/** Inferred: TBLCASABIT.CARI_KOD holds 15 characters. */
const CODE_MAX = 15;

export class NetsisOrders {
  constructor(private readonly api: NetsisApi) {}

  /** Deterministic account code for our customer reference (≤ 15 characters). */
  customerCode(ref: string): string {
    const prefix = (this.api.cfg.customerPrefix ?? "120.W.").slice(0, 8);
    const clean = asciiCode(ref);
    if (prefix.length + clean.length <= CODE_MAX) return prefix + clean;
    const hash = createHash("sha1").update(ref).digest("hex").toUpperCase();
    return prefix + hash.slice(0, CODE_MAX - prefix.length);
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerCode(c.ref);
    const found = await this.api.list("ARPs/", "ARPs", {
      limit: 1,
      offset: 0,
      q: `CARI_KOD = ${sqlText(code)}`,
    });
    if (found.length > 0) return { code, existed: true };
    const a = c.billingAddress;
    const title = (c.companyName ?? `${c.firstName} ${c.lastName}`).trim();
    const prim: NetsisRow = {
      CARI_KOD: code,
      CARI_ISIM: title.slice(0, 100),
      // "A" = alıcı (customer), as Netsis codes the account type (inferred from 3P clients, erps.md §3b).
      CARI_TIP: "A",
      Sube_Kodu: this.api.branch,
      CARI_ADRES: [a.line1, a.line2].filter(Boolean).join(" ").slice(0, 100),
      CARI_IL: a.city.slice(0, 15),
      CARI_ILCE: (a.district ?? "").slice(0, 15),
      POSTAKODU: (a.postalCode ?? "").slice(0, 8),
      CARI_TEL: (c.phone ?? a.phone ?? "").slice(0, 20),
      EMAIL: (c.email ?? "").slice(0, 60),
    };
    const supp: NetsisRow = { CARI_KOD: code };
    if (c.taxNumber) {
      if (c.isCompany) {
        prim.VERGI_NUMARASI = c.taxNumber;
        prim.VERGI_DAIRESI = (c.taxOffice ?? "").slice(0, 15);
      } else supp.TcKimlikNo = c.taxNumber;
    }
    await this.api.call("POST", "ARPs/", "ARPs:post", "write", { CariTemelBilgi: prim, CariEkBilgi: supp });
    return { code, existed: false };
  }

  private async headers(tip: number, ref: string): Promise<NetsisRow[]> {
    return this.api.list("ItemSlips/MainInfo/", "ItemSlips:MainInfo", {
      limit: 10,
      offset: 0,
      q: `Tip = ${tip} AND EKACK1 = ${sqlText(ref)}`,
    });
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const [first] = await this.headers(FATURA_TIP.customerOrder, ref);
    if (!first) return null;
    return { documentId: str(first.FATIRS_NO), ref, existed: true };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const depot = Number(input.location ?? this.api.cfg.depotCode ?? "1");
    const at = trDateTime(order.createdAt);
    const slip = {
      FaturaTip: FATURA_TIP.customerOrder,
      Seri: input.series ?? this.api.cfg.orderSeries ?? "W",
      // Number from the series and keep the series' last number current (3P clients do so, erps.md §3b).
      KayitliNumaraOtomatikGuncellensin: true,
      FatUst: {
        Sube_Kodu: this.api.branch,
        CariKod: input.customerCode,
        Tarih: at,
        SIPARIS_TEST: at,
        Tip: FATURA_TIP.customerOrder,
        // ft_Acik (open account sale), as the 3P clients send it; inferred.
        TIPI: 2,
        KDV_DAHILMI: true,
        Aciklama: `E-ticaret sipariş no ${order.orderNo}`.slice(0, 50),
        EKACK1: order.orderNo,
        // Shipping as the slip's first bottom expense (fatura altı masraf 1); inferred.
        ...(order.shipping.cost > 0 ? { FAT_ALTM1: round2(order.shipping.cost) } : {}),
      },
      Kalems: order.lines.map((l) => ({
        StokKodu: l.sku,
        STra_GCMIK: l.qty,
        // Gross unit price, VAT included (KDV_DAHILMI), after the line's discount.
        STra_BF: round2(l.total / l.qty),
        STra_KDV: l.vatRate,
        ...(Number.isInteger(depot) ? { DEPO_KODU: depot } : {}),
      })),
    };
    let answer: NetsisRow;
    try {
      answer = await this.api.call("POST", "ItemSlips/", "ItemSlips:post", "write", slip);
    } catch (e) {
      if (e instanceof ConnectorError) {
        const sku = /stok (?:kodu|kart[ıi]) bulunamad[ıi]:? (\S+)/i.exec(e.systemMessage ?? "")?.[1];
        throw e.with({
          reason: sku ? "unknown_item" : e.reason,
          itemKeys: sku ? [order.orderNo, sku] : [order.orderNo],
        });
      }
      throw e;
    }
    const head = isObj(answer.Data) && isObj(answer.Data.FatUst) ? answer.Data.FatUst : undefined;
    const no = str(head?.FATIRS_NO);
    if (no) return { documentId: no, ref: order.orderNo, existed: false };
    const created = await this.findOrderByRef(order.orderNo);
    if (!created) {
      throw new ConnectorError(`netsis ItemSlips: order ${order.orderNo} accepted but not found`, {
        reason: "bad_response",
        system: "netsis",
        operation: "ItemSlips:post",
        itemKeys: [order.orderNo],
      });
    }
    return { ...created, existed: false };
  }

  /**
   * Sales invoices carrying our reference (inferred: Netsis copies EKACK1 from the order it invoices),
   * each read whole by `ItemSlips/{ftSFat;FATIRS_NO;CariKod}/` as Rest.Library/RestFunctions.cs does.
   * The DLL's slip models carry no ETTN, so `uuid` stays empty and invoice transfer skips these.
   */
  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const out: Invoice[] = [];
    for (const h of await this.headers(FATURA_TIP.salesInvoice, ref)) {
      const id = encodeURIComponent(`ftSFat;${str(h.FATIRS_NO)};${str(h.CariKod)}`);
      const answer = await this.api.call("GET", `ItemSlips/${id}/`, "ItemSlips:get", "read");
      const slip = isObj(answer.Data) ? answer.Data : {};
      const lines = Array.isArray(slip.Kalems) ? slip.Kalems.filter(isObj) : [];
      out.push({
        orderRef: ref,
        number: str(h.FATIRS_NO),
        uuid: "",
        date: str(h.Tarih).slice(0, 10),
        currency: "TRY",
        lines: lines.map((l) => {
          const qty = num(l.STra_GCMIK);
          const unit = num(l.STra_BF);
          return {
            sku: str(l.StokKodu),
            qty,
            unitPrice: unit,
            vatRate: num(l.STra_KDV),
            total: round2(unit * qty),
          };
        }),
        totals: {
          net: round2(num(h.GENELTOPLAM) - num(h.KDV)),
          tax: num(h.KDV),
          gross: num(h.GENELTOPLAM),
        },
      });
    }
    return out;
  }
}
