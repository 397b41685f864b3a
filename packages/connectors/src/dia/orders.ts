/**
 * DİA customers (`scf_carikart_*`), sales orders (`scf_siparis_*`) and the invoices issued for them
 * (`scf_fatura_*`). Master and lines go in one call (`kart` with `m_kalemler`), references as nested
 * `_key_*` lookups by code. Our reference (the shop order no) is the document's `belgeno`; every lookup
 * is one filtered `_listele` call of one row, so a transfer costs as little kontör as it can.
 */

import type { CreateSalesOrderInput, ErpCustomerRef, ErpOrderRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Customer, Invoice } from "../sdk/model";
import { turkishDate } from "../sdk/turkish-time";
import { customerCodeOf, round2 } from "../sdk/util";
import { type DiaApi, type DiaRow, num, str } from "./api";

export class DiaOrders {
  constructor(private readonly api: DiaApi) {}

  /** Deterministic customer code for our reference (≤ 25 characters). */
  customerCode(ref: string): string {
    return customerCodeOf(ref, this.api.cfg.customerPrefix ?? "120.W.", 25);
  }

  private async one(service: string, field: string, value: string, columns: string[]): Promise<DiaRow[]> {
    return this.api.list("scf", service, {
      filters: [{ field, operator: "=", value }],
      params: { selectedcolumns: columns },
      limit: 100,
      offset: 0,
    });
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerCode(c.ref);
    const found = await this.one("scf_carikart_listele", "carikartkodu", code, ["_key", "carikartkodu"]);
    if (found.length > 0) return { code, existed: true };
    const a = c.billingAddress;
    const title = c.companyName ?? `${c.firstName} ${c.lastName}`.trim();
    const isPerson = !c.isCompany;
    await this.api.call("scf", "scf_carikart_ekle", "write", {
      kart: {
        carikartkodu: code,
        unvan: title.slice(0, 100),
        carikarttipi: "AL",
        eposta: c.email ?? "",
        ...(c.taxNumber
          ? isPerson
            ? { tckimlikno: c.taxNumber }
            : { verginumarasi: c.taxNumber, _key_sis_vergidairesi: { kod: c.taxOffice ?? "" } }
          : {}),
        m_adresler: [
          {
            adrestipi: "F",
            adres1: [a.line1, a.line2].filter(Boolean).join(" ").slice(0, 250),
            ilce: a.district ?? "",
            sehir: a.city,
            ulke: a.country,
            postakodu: a.postalCode ?? "",
            telefon1: c.phone ?? a.phone ?? "",
          },
        ],
      },
    });
    return { code, existed: false };
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const rows = await this.one("scf_siparis_listele", "belgeno", ref, ["_key", "fisno", "belgeno"]);
    const first = rows[0];
    if (!first) return null;
    return { documentId: str(first.fisno) || str(first._key), ref, existed: true };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const depot = input.location ?? this.api.cfg.depotCode;
    const lines = order.lines.map((l) => {
      const net = round2(l.total / (1 + l.vatRate / 100));
      return {
        _key_scf_stokkart: { stokkodu: l.sku },
        miktar: l.qty,
        birimfiyati: round2(net / l.qty),
        kdv: l.vatRate,
        ...(depot ? { _key_sis_depo_source: { depokodu: depot } } : {}),
      };
    });
    try {
      await this.api.call("scf", "scf_siparis_ekle", "write", {
        kart: {
          belgeno: order.orderNo,
          tarih: turkishDate(Date.parse(order.createdAt)),
          _key_scf_carikart: { carikodu: input.customerCode },
          aciklama1: `E-ticaret sipariş no ${order.orderNo}`,
          dovizkodu: order.currency === "TRY" ? "TL" : order.currency,
          ...(order.shipping.cost > 0 ? { kargotutari: order.shipping.cost } : {}),
          m_kalemler: lines,
        },
      });
    } catch (e) {
      if (e instanceof ConnectorError) {
        const sku = /stok kart[ıi] bulunamad[ıi]: (\S+)/i.exec(e.systemMessage ?? "")?.[1];
        throw e.with({
          reason: sku ? "unknown_item" : e.reason,
          itemKeys: sku ? [order.orderNo, sku] : [order.orderNo],
        });
      }
      throw e;
    }
    // The answer's key is not documented for sure: read the order back by our reference.
    const created = await this.findOrderByRef(order.orderNo);
    if (!created) {
      throw new ConnectorError(`dia scf_siparis_ekle: order ${order.orderNo} accepted but not found`, {
        reason: "bad_response",
        system: "dia",
        operation: "scf_siparis_ekle",
        itemKeys: [order.orderNo],
      });
    }
    return { ...created, existed: false };
  }

  /** Invoices whose `belgeno` is our reference (DİA copies it from the order it was issued from). */
  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const heads = await this.one("scf_fatura_listele", "belgeno", ref, [
      "_key",
      "fisno",
      "belgeno",
      "tarih",
      "ettn",
      "dovizkodu",
      "toplam",
      "toplamkdv",
      "net",
    ]);
    const out: Invoice[] = [];
    for (const h of heads) {
      const detail = await this.api.call("scf", "scf_fatura_getir", "read", { key: num(h._key) });
      const kart = (detail.result ?? {}) as DiaRow;
      const lines = Array.isArray(kart.m_kalemler) ? (kart.m_kalemler as DiaRow[]) : [];
      out.push({
        orderRef: ref,
        number: str(h.fisno),
        uuid: str(h.ettn).toLowerCase(),
        date: str(h.tarih).slice(0, 10),
        currency: str(h.dovizkodu) === "TL" || !h.dovizkodu ? "TRY" : str(h.dovizkodu),
        lines: lines.map((l) => {
          const qty = num(l.miktar);
          const net = num(l.tutari);
          const rate = num(l.kdv);
          const total = round2(net * (1 + rate / 100));
          return {
            sku: str(l.stokkartkodu),
            qty,
            unitPrice: qty > 0 ? round2(total / qty) : total,
            vatRate: rate,
            total,
          };
        }),
        totals: { net: num(h.toplam), tax: num(h.toplamkdv), gross: num(h.net) },
      });
    }
    return out;
  }
}
