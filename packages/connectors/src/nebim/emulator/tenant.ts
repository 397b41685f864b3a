/**
 * The Nebim V3 tenant behind the emulator's Integrator service: its seeded items (with stock and prices per
 * warehouse), customers and orders, the stored procedures `RunProc` calls and what a `Post` writes. The
 * HTTP side (IIS sessions, tokens, the kit's faults) is server.ts.
 */

import { randomUUID } from "node:crypto";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import type { NEBIM_DEFAULT_PROCS } from "../descriptor";
import { postProblems, runProcProblems } from "../judge/requests";

export type Row = Record<string, unknown>;

export interface NebimOrderRecord {
  Payments?: Row[];
  /** The internet-sale block as posted (what V3 keeps for the e-Arşiv it issues). */
  OrdersViaInternetInfo?: Row;
  OrderNumber: string;
  HeaderID: string;
  ModelType: number;
  DocumentNumber: string;
  CustomerCode: string;
  WarehouseCode: string;
  Lines: Row[];
}

const WAREHOUSES = [
  { WarehouseCode: "M01", WarehouseDescription: "Merkez Mağaza" },
  { WarehouseCode: "D01", WarehouseDescription: "Merkez Depo" },
];

/** An error the service answers in its own shape (`{ModelType: 0, ExceptionMessage, StackTrace}`). */
export class NebimFail extends Error {
  constructor(
    msg: string,
    readonly http = 500,
  ) {
    super(msg);
  }
}

export const s = (v: unknown) => (v === undefined || v === null ? "" : String(v)).trim();

export function createNebimTenant(opts: {
  seed: number | string;
  productCount: number;
  now: number;
  storeCode: string;
  procs: Record<keyof typeof NEBIM_DEFAULT_PROCS, string>;
}) {
  const { seed, procs } = opts;
  // Seeded data: every catalogue SKU is an item without colour/size (ItemDimTypeCode 0) whose model groups it
  // with its sizes (the ModelCode / OptionName / OptionValue columns of the products procedure), plus the PDF's
  // sample item K001 in colour 04, sizes 40 and 42, so the colour/size variant path is exercised.
  const catalog = generateCatalog({ seed, count: opts.productCount, now: opts.now });
  const items: Row[] = catalog.map((it) => ({
    ItemCode: it.sku,
    ItemDescription: it.name,
    ModelCode: it.modelCode,
    ModelDescription: it.modelName,
    OptionName: it.optionName ?? "",
    OptionValue: it.optionValue ?? "",
    ColorCode: "",
    ColorDescription: "",
    ItemDim1Code: "",
    Barcode: it.barcode,
    VatRate: it.vatRate,
    UnitOfMeasureCode1: it.unit === "Adet" ? "AD" : it.unit.toUpperCase().slice(0, 10),
    Brand: it.brand,
    Category: `${it.categoryRoot} > ${it.categoryChild}`,
    IsBlocked: false,
  }));
  for (const [size, barcode] of [
    ["40", "8695450000636"],
    ["42", "8695450000643"],
  ] as const)
    items.push({
      ItemCode: "K001",
      ItemDescription: "Kareli Gömlek",
      ColorCode: "04",
      ColorDescription: "Lacivert",
      ItemDim1Code: size,
      Barcode: barcode,
      VatRate: 10,
      UnitOfMeasureCode1: "AD",
      Brand: "Demo Tekstil",
      Category: "Giyim > Gömlek",
      IsBlocked: false,
    });
  const keyOf = (r: Row) => `${s(r.ItemCode)}|${s(r.ColorCode)}|${s(r.ItemDim1Code)}`;
  const itemKeys = new Set(items.map(keyOf));
  const barcodes = new Map(items.map((r) => [s(r.Barcode), r]));
  const stock = new Map<string, number>(); // `${key}|${warehouse}`
  const prices = new Map<string, { price: number; group: string }[]>();
  catalog.forEach((it, i) => {
    const key = keyOf(items[i] as Row);
    stock.set(`${key}|M01`, it.stock1);
    stock.set(`${key}|D01`, it.stock2);
    prices.set(key, [
      { group: "PSF", price: it.retailPrice },
      { group: "TOPTAN", price: it.wholesalePrice },
    ]);
  });
  for (const r of items.slice(catalog.length)) {
    stock.set(`${keyOf(r)}|M01`, 5);
    stock.set(`${keyOf(r)}|D01`, 12);
    prices.set(keyOf(r), [
      { group: "PSF", price: 100 },
      { group: "TOPTAN", price: 72.73 },
    ]);
  }

  const customers = new Map<string, Row>();
  for (const [i, c] of generateCustomers(seed, 3).entries())
    customers.set(`1-4-${i + 1}`, {
      ModelType: 3,
      CurrAccCode: `1-4-${i + 1}`,
      FirstName: c.firstName,
      LastName: c.lastName,
      Communications: [{ CommunicationTypeCode: "7", CommAddress: c.phone }],
    });
  let customerSerial = customers.size;
  const orders: NebimOrderRecord[] = [];

  const stockRow = (r: Row, w: { WarehouseCode: string; WarehouseDescription: string }) => ({
    ItemCode: r.ItemCode,
    ColorCode: r.ColorCode,
    ItemDim1Code: r.ItemDim1Code,
    WarehouseCode: w.WarehouseCode,
    WarehouseDescription: w.WarehouseDescription,
    Qty: stock.get(`${keyOf(r)}|${w.WarehouseCode}`) ?? 0,
  });

  /** The tenant's procedures: name → parameter names and the result set. */
  const PROCS: Record<string, { params: string[]; run: (p: Record<string, string>) => Row[] }> = {
    [procs.products]: { params: [], run: () => items.map((r) => ({ ...r })) },
    [procs.stock]: { params: [], run: () => items.flatMap((r) => WAREHOUSES.map((w) => stockRow(r, w))) },
    [procs.prices]: {
      params: [],
      run: () =>
        items.flatMap((r) =>
          (prices.get(keyOf(r)) ?? []).map((p) => ({
            ItemCode: r.ItemCode,
            ColorCode: r.ColorCode,
            ItemDim1Code: r.ItemDim1Code,
            PriceGroupCode: p.group,
            PriceGroupDescription: p.group === "PSF" ? "Perakende Satış Fiyatı" : "Toptan Satış Fiyatı",
            Price: p.price,
            CurrencyCode: "TRY",
            IsVatIncluded: p.group === "PSF",
          })),
        ),
    },
    [procs.customer]: {
      params: ["CommAddress", "CommunicationTypeCode"],
      run: (p) =>
        [...customers.values()]
          .filter((c) =>
            ((c.Communications as Row[] | undefined) ?? []).some(
              (m) =>
                s(m.CommAddress) === p.CommAddress && s(m.CommunicationTypeCode) === p.CommunicationTypeCode,
            ),
          )
          .map((c) => ({
            CurrAccCode: c.CurrAccCode,
            FirstName: c.FirstName ?? "",
            LastName: c.LastName ?? "",
          })),
    },
    [procs.orderLookup]: {
      params: ["DocumentNumber"],
      run: (p) =>
        orders
          .filter((o) => o.DocumentNumber === p.DocumentNumber)
          .map((o) => ({
            OrderNumber: o.OrderNumber,
            HeaderID: o.HeaderID,
            DocumentNumber: o.DocumentNumber,
          })),
    },
  };

  function runProc(body: Row): Row[] {
    const problems = runProcProblems(body);
    if (problems.length > 0) throw new NebimFail(problems.join("; "));
    const name = s(body.ProcName);
    const proc = PROCS[name];
    if (!proc) throw new NebimFail(`Could not find stored procedure '${name}'.`);
    const given = Object.fromEntries(
      ((body.Parameters as Row[] | undefined) ?? []).map((p) => [s(p.Name).replace(/^@/, ""), s(p.Value)]),
    );
    for (const p of proc.params)
      if (!(p in given))
        throw new NebimFail(
          `Procedure or function '${name}' expects parameter '@${p}', which was not supplied.`,
        );
    if (Object.keys(given).some((k) => !proc.params.includes(k)))
      throw new NebimFail(`Procedure or function ${name} has too many arguments specified.`);
    return proc.run(given);
  }

  function post(body: Row): Row {
    const judged = postProblems(body);
    if (!judged) throw new NebimFail(`ModelType ${s(body.ModelType)} tanımlı değil.`);
    if (judged.problems.length > 0) throw new NebimFail(judged.problems.join("; "));
    const mt = Number(body.ModelType);
    if (mt === 2 || mt === 3) {
      let code = s(body.CurrAccCode);
      if (!code) code = `1-${mt === 3 ? 4 : 3}-${++customerSerial}`;
      // PDF: an existing CurrAccCode is updated, not added again.
      customers.set(code, { ...customers.get(code), ...body, CurrAccCode: code });
      return { ...body, CurrAccCode: code };
    }
    if (mt === 5 || mt === 6) {
      const customer = s(body.CustomerCode);
      const card = customers.get(customer);
      if (!card) throw new NebimFail(`Cari hesap bulunamadı: ${customer}`);
      if ((mt === 6) !== (Number(card.ModelType) === 3))
        throw new NebimFail(`${customer} kodlu cari hesap bu sipariş tipinde kullanılamaz.`);
      const warehouse = s(mt === 6 ? body.StoreWareHouseCode : body.WarehouseCode);
      if (!WAREHOUSES.some((w) => w.WarehouseCode === warehouse))
        throw new NebimFail(`Depo bulunamadı: ${warehouse}`);
      if (mt === 6 && s(body.StoreCode) !== opts.storeCode)
        throw new NebimFail(`Mağaza bulunamadı: ${s(body.StoreCode)}`);
      const lines = (body.Lines as Row[]).map((l) => {
        if (l.UsedBarcode !== undefined) {
          const r = barcodes.get(s(l.UsedBarcode));
          if (!r) throw new NebimFail(`Barkod bulunamadı: ${s(l.UsedBarcode)}`);
          return { ...l, ItemCode: r.ItemCode, ColorCode: r.ColorCode, ItemDim1Code: r.ItemDim1Code };
        }
        if (!itemKeys.has(keyOf(l)))
          throw new NebimFail(
            `Ürün bulunamadı. ItemCode: ${s(l.ItemCode)} ColorCode: ${s(l.ColorCode)} ItemDim1Code: ${s(l.ItemDim1Code)}`,
          );
        return l;
      });
      const order: NebimOrderRecord = {
        OrderNumber: `1-${mt === 6 ? "R" : "WS"}-1-${orders.length + 1}`,
        HeaderID: randomUUID(),
        ModelType: mt,
        DocumentNumber: s(body.DocumentNumber),
        CustomerCode: customer,
        WarehouseCode: warehouse,
        Lines: lines,
        Payments: body.Payments as Row[] | undefined,
        OrdersViaInternetInfo: body.OrdersViaInternetInfo as Row | undefined,
      };
      orders.push(order);
      return { ...body, OrderNumber: order.OrderNumber, HeaderID: order.HeaderID };
    }
    throw new NebimFail(`ModelType ${mt} bu emülatörde yok.`);
  }

  return {
    customers,
    orders,
    runProc,
    post,
    /** Our order number (DocumentNumber) → the Nebim orders holding it. */
    documentsByOrder() {
      const out = new Map<string, Set<string>>();
      for (const o of orders) {
        const set = out.get(o.DocumentNumber) ?? new Set<string>();
        set.add(o.OrderNumber);
        out.set(o.DocumentNumber, set);
      }
      return out;
    },
    setStock(itemCode: string, warehouse: string, qty: number) {
      for (const r of items) if (r.ItemCode === itemCode) stock.set(`${keyOf(r)}|${warehouse}`, qty);
    },
    setPrice(itemCode: string, group: string, amount: number) {
      for (const r of items)
        if (r.ItemCode === itemCode)
          for (const p of prices.get(keyOf(r)) ?? []) if (p.group === group) p.price = amount;
    },
  };
}
