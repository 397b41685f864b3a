import type { JobType } from "@ep/contracts";
import type { JobSchedule } from "../store/schema.ts";

export type JobDefinition = {
  type: JobType;
  /** The name the panel shows (Turkish, the spec's icon names key off it). */
  name: string;
  area: "product" | "order";
  defaultSchedule: JobSchedule;
  /** Order within one sweep: categories before products, products before stock and prices. */
  order: number;
};

/** Every company gets one job of each type once both of its connections exist. */
export const JOB_CATALOG: Record<JobType, JobDefinition> = {
  CategoryIntegration: {
    type: "CategoryIntegration",
    name: "Kategori Aktarımı",
    area: "product",
    defaultSchedule: { kind: "interval", minutes: 60 },
    order: 1,
  },
  ProductIntegration: {
    type: "ProductIntegration",
    name: "Ürün Aktarımı",
    area: "product",
    defaultSchedule: { kind: "interval", minutes: 30 },
    order: 2,
  },
  ProductUpdate: {
    type: "ProductUpdate",
    name: "Ürün Güncelleme",
    area: "product",
    defaultSchedule: { kind: "interval", minutes: 30 },
    order: 3,
  },
  StockIntegration: {
    type: "StockIntegration",
    name: "Stok Güncelleme",
    area: "product",
    defaultSchedule: { kind: "interval", minutes: 5 },
    order: 4,
  },
  PriceIntegration: {
    type: "PriceIntegration",
    name: "Fiyat Güncelleme",
    area: "product",
    defaultSchedule: { kind: "interval", minutes: 15 },
    order: 5,
  },
  OrderIntegration: {
    type: "OrderIntegration",
    name: "Sipariş Aktarımı",
    area: "order",
    defaultSchedule: { kind: "interval", minutes: 5 },
    order: 6,
  },
  InvoiceIntegration: {
    type: "InvoiceIntegration",
    name: "Fatura Aktarımı",
    area: "order",
    defaultSchedule: { kind: "interval", minutes: 15 },
    order: 7,
  },
};

export const JOB_DEFINITIONS = Object.values(JOB_CATALOG).sort((a, b) => a.order - b.order);
