/**
 * The order transfer flow's own rules (issue 41), against scripted shop and ERP connectors on a real
 * database (PGlite, or PostgreSQL when DATABASE_URL is set): which shop orders are taken, the cursor,
 * the claim and its lock, the lookup before a second create, one ERP account per customer, the
 * mappings, and what a transient, a lock or a permanent failure leaves behind.
 * `orders.test.ts` runs the same flow end to end against the Mikro and IKAS emulators.
 */
import {
  ConnectorError,
  type ConnectorErrorInit,
  type CreateSalesOrderInput,
  type Customer,
  type ErpConnector,
  type Order,
  type ShopConnector,
} from "@ep/connectors";
import { message } from "@ep/contracts";
import {
  type CompanyMappings,
  DEFAULT_MAPPINGS,
  engineSchema,
  FLOWS,
  type FlowContext,
  failureText,
  RunTally,
} from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moduleDatabase } from "../support/module-database.ts";

const { orderLedger, syncCursors } = engineSchema;
const orderTransfer = FLOWS.OrderIntegration;
const NOW = new Date("2026-11-20T12:00:00Z");
const names = { mikro: "Mikro", ikas: "IKAS" };

const store = moduleDatabase();

const error = (reason: ConnectorErrorInit["reason"], text: string = reason) =>
  new ConnectorError(text, { reason });

function order(no: string, over: Partial<Order> = {}): Order {
  const address = { firstName: "Ayşe", lastName: "Yılmaz", line1: "Moda Cad. 1", city: "İstanbul" };
  return {
    id: `id-${no}`,
    orderNo: no,
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    status: "CREATED",
    currency: "TRY",
    customer: { ref: `c-${no}`, firstName: "Ayşe", lastName: "Yılmaz", isCompany: false },
    billingAddress: address,
    shippingAddress: address,
    lines: [{ sku: "SKU-1", name: "Tişört", qty: 1, unitPrice: 100, vatRate: 20, discount: 0, total: 100 }],
    shipping: { cost: 0 },
    totals: { subtotal: 100, discount: 0, shipping: 0, tax: 0, grandTotal: 100 },
    ...over,
  } as Order;
}

type Script = {
  /** Pages the shop lists, each with the cursor it answers. */
  pages?: { items: Order[]; cursor?: string }[];
  /** What the ERP already holds, by our reference. */
  existing?: Record<string, string>;
  /** Answers createSalesOrder (after the default: a new document). */
  create?: (input: CreateSalesOrderInput, call: number) => Promise<void> | void;
  createCustomer?: (customer: Customer, call: number) => Promise<string>;
  updateOrderStatus?: () => Promise<void>;
};

/** Scripted connectors recording every call the flow makes. */
function connectors(script: Script) {
  const calls = {
    since: [] as (string | undefined)[],
    pageTokens: [] as (string | undefined)[],
    lookups: [] as string[],
    customers: [] as string[],
    creates: [] as CreateSalesOrderInput[],
    statuses: [] as [string, string][],
  };
  let creates = 0;
  const pages = script.pages ?? [{ items: [] }];
  const shop = {
    descriptor: { system: "ikas", name: "IKAS" },
    async listOrders(q: { since?: string; pageToken?: string } = {}) {
      calls.since.push(q.since);
      calls.pageTokens.push(q.pageToken);
      const i = q.pageToken ? Number(q.pageToken) : 0;
      const page = pages[i]!;
      return { ...page, nextPageToken: i + 1 < pages.length ? String(i + 1) : undefined };
    },
    async updateOrderStatus(id: string, update: { status: string }) {
      calls.statuses.push([id, update.status]);
      await script.updateOrderStatus?.();
    },
  } as unknown as ShopConnector;
  const erp = {
    descriptor: { system: "mikro", name: "Mikro" },
    async findOrderByRef(ref: string) {
      calls.lookups.push(ref);
      const documentId = script.existing?.[ref];
      return documentId ? { documentId } : null;
    },
    async createCustomer(customer: Customer) {
      calls.customers.push(customer.ref);
      const code = script.createCustomer
        ? await script.createCustomer(customer, calls.customers.length)
        : `C-${customer.ref}`;
      return { code };
    },
    async createSalesOrder(input: CreateSalesOrderInput) {
      calls.creates.push(input);
      await script.create?.(input, ++creates);
      return { documentId: `DOC-${input.order.orderNo}` };
    },
  } as unknown as ErpConnector;
  return { shop, erp, calls };
}

const company = () => store.company();

type Setup = Awaited<ReturnType<typeof company>>;

async function run(
  at: Setup,
  script: Script | ReturnType<typeof connectors>,
  options: {
    mappings?: Partial<CompanyMappings>;
    onlyKeys?: string[];
    workerId?: string;
    signal?: AbortSignal;
  } = {},
) {
  const systems = "calls" in script ? script : connectors(script);
  const tally = new RunTally();
  const ctx = {
    db: store.db,
    companyId: at.companyId,
    runId: 1,
    job: { id: 1, type: "OrderIntegration", name: "Sipariş", options: {} },
    erp: systems.erp,
    shop: systems.shop,
    erpConnectionId: 0,
    shopConnectionId: at.shopConnectionId,
    ledger: undefined as never,
    mappings: { ...DEFAULT_MAPPINGS, ...options.mappings },
    onlyKeys: options.onlyKeys ? new Set(options.onlyKeys) : null,
    trigger: "manual",
    now: () => NOW,
    tally,
    signal: options.signal ?? new AbortController().signal,
    workerId: options.workerId ?? "worker-1",
    lockMs: 60_000,
  } as FlowContext;
  await orderTransfer(ctx);
  return { tally, calls: systems.calls };
}

async function rows(at: Setup) {
  const list = await store.db
    .select()
    .from(orderLedger)
    .where(eq(orderLedger.shopConnectionId, at.shopConnectionId));
  return new Map(list.map((r) => [r.orderNo, r]));
}

async function cursorOf(at: Setup) {
  const [row] = await store.db
    .select()
    .from(syncCursors)
    .where(
      and(eq(syncCursors.companyId, at.companyId), eq(syncCursors.stream, `orders:${at.shopConnectionId}`)),
    );
  return row?.cursor;
}

describe("which shop orders are taken", () => {
  it('all but cancelled or refunded ones by default ("İptal Edildi", "İade" too), only the chosen statuses when set', async () => {
    const statuses = ["CREATED", "CANCELLED", "İptal Edildi", "REFUNDED", "İade", "SHIPPED"];
    const items = statuses.map((status, i) => order(`D${i}`, { status }));
    const byDefault = await company();
    await run(byDefault, { pages: [{ items }] });
    expect([...(await rows(byDefault)).keys()].sort()).toEqual(["D0", "D5"]);

    const chosen = await company();
    await run(chosen, { pages: [{ items }] }, { mappings: { orderStatusesToTransfer: ["SHIPPED", "İade"] } });
    expect([...(await rows(chosen)).keys()].sort()).toEqual(["D4", "D5"]);
  });

  it("keeps what the shop says of an order in the ledger; one listed twice is taken once, as last seen", async () => {
    const at = await company();
    const first = order("K1", { status: "CREATED", totals: { ...order("K1").totals, grandTotal: 50 } });
    const last = order("K1", {
      status: "PAID",
      currency: "EUR",
      createdAt: "2026-11-19T08:00:00Z",
      updatedAt: "2026-11-20T09:30:00Z",
      totals: { ...order("K1").totals, grandTotal: 75.5 },
    });
    const { calls } = await run(at, { pages: [{ items: [first, order("K2"), last] }] });
    const row = (await rows(at)).get("K1")!;
    expect(row).toMatchObject({
      companyId: at.companyId,
      shopOrderId: "id-K1",
      grandTotal: 75.5,
      currency: "EUR",
      state: "confirmed",
    });
    expect(row.orderDate.toISOString()).toBe("2026-11-19T08:00:00.000Z");
    expect(row.shopUpdatedAt?.toISOString()).toBe("2026-11-20T09:30:00.000Z");
    expect((row.payload as Order).status).toBe("PAID");
    expect(calls.creates.filter((c) => c.order.orderNo === "K1")).toHaveLength(1);
  });

  it("refreshes a listed order's payload only while it has not gone to the ERP", async () => {
    const at = await company();
    await run(at, { pages: [{ items: [order("R1")] }] });
    // R2 fails for good, R1 is confirmed: the shop then changes both.
    await run(at, {
      pages: [{ items: [order("R2")] }],
      create: () => {
        throw error("validation", "Cari hesap kapalı");
      },
    });
    const changed = { note: "kapıya bırakın", updatedAt: "2026-11-21T10:00:00Z" };
    await run(at, {
      pages: [{ items: [order("R1", changed), order("R2", changed)] }],
      create: () => {
        throw error("validation");
      },
    });
    const after = await rows(at);
    expect((after.get("R1")!.payload as Order).note).toBeUndefined();
    expect(after.get("R1")!.shopUpdatedAt?.toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect((after.get("R2")!.payload as Order).note).toBe("kapıya bırakın");
  });

  it("reads every page from the stored cursor and keeps the last page's cursor for the next run", async () => {
    const at = await company();
    const first = await run(at, {
      pages: [
        { items: [order("P1")], cursor: "c1" },
        { items: [order("P2")], cursor: "c2" },
        { items: [order("P3")] },
      ],
    });
    expect(first.calls.since).toEqual([undefined, undefined, undefined]);
    expect(first.calls.pageTokens).toEqual([undefined, "1", "2"]);
    expect(first.tally.counts.read).toBe(3);
    expect((await rows(at)).size).toBe(3);
    expect(await cursorOf(at)).toBe("c2");

    const second = await run(at, { pages: [{ items: [], cursor: "c3" }] });
    expect(second.calls.since).toEqual(["c2"]);
    expect(await cursorOf(at)).toBe("c3");
    // A page without a cursor keeps the stored one; the same cursor again is not written again.
    await run(at, { pages: [{ items: [] }] });
    expect(await cursorOf(at)).toBe("c3");
    const stamp = async () =>
      (await store.db.select().from(syncCursors).where(eq(syncCursors.companyId, at.companyId)))[0]!
        .updatedAt;
    const before = await stamp();
    await new Promise((r) => setTimeout(r, 5));
    await run(at, { pages: [{ items: [], cursor: "c3" }] });
    expect((await stamp()).getTime()).toBe(before.getTime());
  });
});

describe("the transfer", () => {
  it("creates each order once with the mapped payment, channel, warehouse and series, then sets the shop status", async () => {
    const at = await company();
    const items = [
      order("M1", { paymentType: "CREDIT_CARD", salesChannel: "web" }),
      order("M2", { paymentType: "EFT", salesChannel: "mobil" }),
      order("M3"),
    ];
    const { tally, calls } = await run(
      at,
      { pages: [{ items }] },
      {
        mappings: {
          paymentTypes: { CREDIT_CARD: "KK" },
          salesChannels: { web: "WEB-KANAL" },
          orderWarehouse: "DEPO-2",
          orderSeries: "ETC",
          statusAfterTransfer: "ERP'DE",
        },
      },
    );
    const byNo = new Map(calls.creates.map((c) => [c.order.orderNo, c]));
    expect(byNo.get("M1")).toMatchObject({
      order: { paymentType: "KK", salesChannel: "WEB-KANAL" },
      customerCode: "C-c-M1",
      location: "DEPO-2",
      series: "ETC",
    });
    expect(byNo.get("M2")!.order).toMatchObject({ paymentType: "EFT", salesChannel: "mobil" });
    expect(byNo.get("M3")!.order.paymentType).toBeUndefined();
    expect(byNo.get("M3")!.order.salesChannel).toBeUndefined();
    expect("paymentType" in byNo.get("M3")!.order).toBe(true);
    expect(calls.creates).toHaveLength(3);
    // Never tried before: nothing to look up first.
    expect(calls.lookups).toEqual([]);
    expect(calls.statuses.sort()).toEqual([
      ["id-M1", "ERP'DE"],
      ["id-M2", "ERP'DE"],
      ["id-M3", "ERP'DE"],
    ]);
    expect(tally.counts).toMatchObject({ read: 3, changed: 3, written: 3, failed: 0 });
    expect(tally.movedKeys.sort()).toEqual(["M1", "M2", "M3"]);
    expect(tally.lines).toEqual([]);

    const m1 = (await rows(at)).get("M1")!;
    expect(m1).toMatchObject({
      state: "confirmed",
      erpDocumentId: "DOC-M1",
      erpCustomerCode: "C-c-M1",
      attempts: 1,
      lastError: null,
      lockOwner: null,
      lockUntil: null,
    });
    expect(m1.sentAt?.toISOString()).toBe(NOW.toISOString());
    expect(m1.confirmedAt?.toISOString()).toBe(NOW.toISOString());
    expect(m1.updatedAt.toISOString()).toBe(NOW.toISOString());

    const again = await run(at, { pages: [{ items }] });
    expect(again.calls.creates).toEqual([]);
    expect(again.tally.counts.changed).toBe(0);
  });

  it("passes no warehouse when none is chosen; a shop that refuses the status change does not undo the transfer", async () => {
    const at = await company();
    const { calls, tally } = await run(
      at,
      {
        pages: [{ items: [order("W1")] }],
        updateOrderStatus: () => Promise.reject(error("server_error")),
      },
      { mappings: { statusAfterTransfer: "ERP'DE" } },
    );
    expect(calls.creates[0]!.location).toBeUndefined();
    expect(calls.creates[0]!.series).toBe("WEB");
    expect(calls.statuses).toEqual([["id-W1", "ERP'DE"]]);
    expect(tally.counts.written).toBe(1);
    expect((await rows(at)).get("W1")!.state).toBe("confirmed");
    // Without a status to set, the shop is not asked.
    const quiet = await company();
    expect((await run(quiet, { pages: [{ items: [order("W2")] }] })).calls.statuses).toEqual([]);
  });

  it("looks an order tried before up first: one the ERP holds is confirmed, not created again", async () => {
    const at = await company();
    await run(at, {
      pages: [{ items: [order("L1"), order("L2")] }],
      create: () => {
        throw error("timeout");
      },
    });
    const before = await rows(at);
    expect(before.get("L1")).toMatchObject({ state: "sent", attempts: 1, lockOwner: null, lockUntil: null });
    expect(before.get("L1")!.lastError).toBe(failureText(error("timeout"), names));

    const { calls, tally } = await run(at, { existing: { L1: "ERP-77" } });
    expect(calls.lookups.sort()).toEqual(["L1", "L2"]);
    expect(calls.creates.map((c) => c.order.orderNo)).toEqual(["L2"]);
    const after = await rows(at);
    expect(after.get("L1")).toMatchObject({
      state: "confirmed",
      erpDocumentId: "ERP-77",
      attempts: 2,
      lastError: null,
      lockOwner: null,
      lockUntil: null,
    });
    expect(after.get("L1")!.confirmedAt?.toISOString()).toBe(NOW.toISOString());
    expect(after.get("L1")!.erpCustomerCode).toBeNull();
    // Found, not written: moved (its failed task resolves) but counted neither changed nor written.
    expect(tally.counts).toMatchObject({ changed: 1, written: 1 });
    expect(tally.movedKeys.sort()).toEqual(["L1", "L2"]);
  });

  it("looks up an order a crash left `sent` with no attempt counted", async () => {
    const at = await company();
    await store.db.insert(orderLedger).values({
      companyId: at.companyId,
      shopConnectionId: at.shopConnectionId,
      orderNo: "S1",
      shopOrderId: "id-S1",
      state: "sent",
      orderDate: NOW,
      payload: order("S1"),
    });
    const { calls } = await run(at, { existing: { S1: "ERP-1" } });
    expect(calls.lookups).toEqual(["S1"]);
    expect(calls.creates).toEqual([]);
  });

  it("takes `received`, `mapped` and `sent` orders, never failed, confirmed or held ones; a retry takes only its keys", async () => {
    const at = await company();
    const put = (orderNo: string, over: Partial<typeof orderLedger.$inferInsert>) =>
      store.db.insert(orderLedger).values({
        companyId: at.companyId,
        shopConnectionId: at.shopConnectionId,
        orderNo,
        shopOrderId: `id-${orderNo}`,
        orderDate: NOW,
        payload: order(orderNo),
        ...over,
      });
    await put("A-received", { state: "received" });
    await put("A-mapped", { state: "mapped" });
    await put("A-failed", { state: "failed", attempts: 1 });
    await put("A-review", { state: "needs_review" });
    await put("A-confirmed", { state: "confirmed", erpDocumentId: "X" });
    await put("A-held", { lockOwner: "worker-2", lockUntil: new Date(NOW.getTime() + 1000) });
    await put("A-expired", { lockOwner: "worker-2", lockUntil: new Date(NOW.getTime() - 1) });
    await put("A-mine", { lockOwner: "worker-1", lockUntil: new Date(NOW.getTime() + 1000) });
    // Another company's order on the same connection id is never taken.
    const other = await company();
    await store.db.insert(orderLedger).values({
      companyId: other.companyId,
      shopConnectionId: at.shopConnectionId,
      orderNo: "B-other",
      shopOrderId: "x",
      orderDate: NOW,
      payload: order("B-other"),
    });
    const { calls } = await run(at, {});
    expect(calls.creates.map((c) => c.order.orderNo).sort()).toEqual([
      "A-expired",
      "A-mapped",
      "A-mine",
      "A-received",
    ]);
    expect((await rows(at)).get("A-held")).toMatchObject({ state: "received", attempts: 0 });

    // A retry of failed tasks: only those keys, failed ones included, not the shop's new orders.
    const retry = await run(
      at,
      { pages: [{ items: [order("A-new")] }], existing: { "A-failed": "ERP-F" } },
      { onlyKeys: ["A-failed", "A-review", "A-confirmed"] },
    );
    expect(retry.calls.since).toEqual([]);
    expect(retry.calls.creates.map((c) => c.order.orderNo)).toEqual(["A-review"]);
    const after = await rows(at);
    expect(after.get("A-failed")).toMatchObject({ state: "confirmed", erpDocumentId: "ERP-F" });
    expect(after.get("A-confirmed")).toMatchObject({ erpDocumentId: "X", attempts: 0 });
    expect(after.has("A-new")).toBe(false);
  });

  it("holds the order under its lock while the ERP writes, and leaves it when another worker took it over", async () => {
    const at = await company();
    let seen: typeof orderLedger.$inferSelect | undefined;
    await run(at, {
      pages: [{ items: [order("H1")] }],
      create: async () => {
        seen = (await rows(at)).get("H1");
        // Another worker takes the order over (this worker's lock ran out meanwhile).
        await store.db.update(orderLedger).set({ lockOwner: "worker-9" }).where(eq(orderLedger.id, seen!.id));
      },
    });
    expect(seen).toMatchObject({ state: "sent", lockOwner: "worker-1", attempts: 1 });
    expect(seen!.lockUntil?.toISOString()).toBe(new Date(NOW.getTime() + 60_000).toISOString());
    // The write that no longer holds the lock changes nothing.
    expect((await rows(at)).get("H1")).toMatchObject({ state: "sent", lockOwner: "worker-9" });
  });
});

describe("ERP customer accounts", () => {
  it("one account per customer, created once even for orders transferred together; its code is kept", async () => {
    const at = await company();
    const customer = { ...order("x").customer, ref: "same" };
    let release: () => void = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const systems = connectors({
      pages: [
        {
          items: [
            order("C1", { customer }),
            order("C2", { customer }),
            order("C3", { customer: { ...customer, ref: "other" } }),
          ],
        },
      ],
      createCustomer: async (c, n) => {
        if (n === 1) setTimeout(release, 50);
        await slow;
        return `K-${c.ref}`;
      },
    });
    await run(at, systems);
    expect(systems.calls.customers.sort()).toEqual(["other", "same"]);
    const codes = new Map(systems.calls.creates.map((c) => [c.order.orderNo, c.customerCode]));
    expect(Object.fromEntries(codes)).toEqual({ C1: "K-same", C2: "K-same", C3: "K-other" });
    expect((await rows(at)).get("C1")!.erpCustomerCode).toBe("K-same");
  });

  it("a later attempt reuses the stored account code; one account for all when the rule says so", async () => {
    const at = await company();
    await run(at, {
      pages: [{ items: [order("U1")] }],
      create: () => {
        throw error("timeout");
      },
    });
    await store.db
      .update(orderLedger)
      .set({ erpCustomerCode: "STORED" })
      .where(eq(orderLedger.shopConnectionId, at.shopConnectionId));
    const { calls } = await run(at, {});
    expect(calls.customers).toEqual([]);
    expect(calls.creates[0]!.customerCode).toBe("STORED");

    const single = await company();
    const one = await run(
      single,
      { pages: [{ items: [order("U2"), order("U3")] }] },
      { mappings: { customerRule: { kind: "singleAccount", accountCode: "120.01" } } },
    );
    expect(one.calls.customers).toEqual([]);
    expect(one.calls.creates.map((c) => c.customerCode)).toEqual(["120.01", "120.01"]);
  });

  it("a refused account creation is not remembered: the order's retry after a lock creates it", async () => {
    const at = await company();
    const systems = connectors({
      pages: [{ items: [order("F1")] }],
      createCustomer: async (c, n) => {
        if (n === 1) throw error("lock");
        return `K-${c.ref}`;
      },
    });
    const { tally } = await run(at, systems);
    expect(systems.calls.customers).toEqual(["c-F1", "c-F1"]);
    expect((await rows(at)).get("F1")).toMatchObject({ state: "confirmed", erpCustomerCode: "K-c-F1" });
    expect(tally.counts.changed).toBe(1);
  });
});

describe("failures", () => {
  it("an order refused on a lock goes again a few times in the same run, counted once", async () => {
    const at = await company();
    const systems = connectors({
      pages: [{ items: [order("K1"), order("K2")] }],
      create: (input) => {
        // K1 is refused on a lock twice, then taken; K2 is refused every time.
        const no = input.order.orderNo;
        const tried = systems.calls.creates.filter((c) => c.order.orderNo === no).length;
        if (no === "K2" || tried <= 2) throw error("lock", "kilitli");
      },
    });
    const { tally, calls } = await run(at, systems);
    const tries = (no: string) => calls.creates.filter((c) => c.order.orderNo === no).length;
    expect(tries("K2")).toBe(4);
    expect(tries("K1")).toBe(3);
    const after = await rows(at);
    expect(after.get("K1")!.state).toBe("confirmed");
    expect(after.get("K2")).toMatchObject({ state: "sent", attempts: 4, lockOwner: null });
    expect(tally.counts).toMatchObject({ changed: 2, written: 1, failed: 0 });
    const text = failureText(error("lock", "kilitli"), names);
    expect(tally.lines).toEqual([message("engine.reportTransientLeft", { count: 1 }), text]);
  });

  it("other transient failures are left for the next run at once, at most three reasons told", async () => {
    const at = await company();
    const reasons = ["timeout", "server_error", "rate_limited", "network", "unavailable"] as const;
    const items = reasons.map((_, i) => order(`T${i}`));
    const { tally, calls } = await run(at, {
      pages: [{ items }],
      create: (input) => {
        throw error(reasons[Number(input.order.orderNo.slice(1))]!);
      },
    });
    expect(calls.creates).toHaveLength(5);
    expect(tally.lines[0]).toBe(message("engine.reportTransientLeft", { count: 5 }));
    expect(tally.lines).toHaveLength(4);
    expect(tally.counts.failed).toBe(0);
    for (const row of (await rows(at)).values()) expect(row.state).toBe("sent");
  });

  it("a permanent failure marks the order failed with the merchant's text and files a failed task", async () => {
    const at = await company();
    const refused = error("validation", "Stok kodu bulunamadı");
    const { tally } = await run(at, {
      pages: [{ items: [order("X1")] }],
      create: () => {
        throw refused;
      },
    });
    const row = (await rows(at)).get("X1")!;
    expect(row).toMatchObject({ state: "failed", lockOwner: null, lockUntil: null });
    expect(row.lastError).toBe(failureText(refused, names));
    expect(tally.counts.failed).toBe(1);
    expect(tally.failures[0]).toMatchObject({
      key: "X1",
      errorType: "validation",
      message: failureText(refused, names),
    });
    expect((tally.failures[0]!.payload as Order).orderNo).toBe("X1");
    expect(tally.lines).toEqual([]);
  });

  it("a stopped run takes no further order", async () => {
    const at = await company();
    const stop = new AbortController();
    stop.abort();
    const { calls } = await run(at, { pages: [{ items: [order("Z1")] }] }, { signal: stop.signal });
    expect(calls.creates).toEqual([]);
    expect((await rows(at)).get("Z1")!.state).toBe("received");
  });
});
