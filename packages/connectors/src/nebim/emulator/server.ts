/**
 * Nebim V3 Integrator emulator on the kit. It serves both IIS modes — session (`/(S(id))/IntegratorService/…`)
 * and token (`Token` header) — with `Connect` (which "succeeds" for any password, as the docs warn),
 * `GetUserInfo` (where a wrong login shows), `Post` validated by the judge derived from the published
 * samples (../judge: a refused model answers the service's error shape `{ModelType: 0, ExceptionMessage,
 * StackTrace}`), `RunProc` against a set of stored procedures (SQL Server's own words for an unknown
 * procedure or a missing parameter), sessions that idle out ("Boş akışın serisini kaldırma girişimi.",
 * docs/99-errors.md) and the kit's faults (429, 5xx, timeouts, dropped writes, refused sessions).
 * The HTTP status of an error answer and the shape of a Post's answer (the model echoed back with its
 * number) are inferred: the docs show neither.
 */

import { randomBytes, randomUUID } from "node:crypto";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import type { RecordedRequest } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { NEBIM_DEFAULT_PROCS } from "../descriptor";
import { parseNebimPath, postProblems, runProcProblems } from "../judge/requests";
import { NEBIM_RULES, type NebimSessionSide } from "../judge/rules";

type Row = Record<string, unknown>;

export interface NebimEmulatorOptions extends EmulatorOptions {
  /** Address the tenant is served at when `listen: false` (the credentials' `serviceUrl`). */
  baseUrl?: string;
  productCount?: number;
  /** How the IIS session state is set: InProc (session) or off (token). */
  mode?: "session" | "token";
  /**
   * Session mode, where sources disagree (judge/rules.ts): "cookieless-redirect" answers every URL without
   * `(S(id))` with a 302 to the session URL (a followed POST loses its body); "direct" (default) answers a
   * bare Connect with the session itself.
   */
  sessionUrl?: NebimSessionSide;
  /** Web.config names an Integrator user, so a Connect without a body signs in (docs/01-1). Default: none. */
  webConfigUser?: boolean;
  databaseName?: string;
  userGroupCode?: string;
  userName?: string;
  password?: string;
  officeCode?: string;
  storeCode?: string;
  /** Stored procedure names the tenant has (defaults: NEBIM_DEFAULT_PROCS). */
  procs?: Partial<Record<keyof typeof NEBIM_DEFAULT_PROCS, string>>;
  sessionIdleMs?: number;
}

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

export interface NebimEmulator
  extends Emulator<EmulatorCounters & { connects: number; posts: number; refused: number }> {
  /** The connection form a company fills for this tenant (system type 1). */
  credentials: Record<string, string>;
  systemType: 1;
  customers: Map<string, Row>;
  orders: NebimOrderRecord[];
  /** Our order number (DocumentNumber) → the Nebim orders holding it. */
  documentsByOrder(): Map<string, Set<string>>;
  setStock(itemCode: string, warehouse: string, qty: number): void;
  setPrice(itemCode: string, group: string, amount: number): void;
  /** Every session / token idles out now. */
  expireSessions(): void;
  /** The runtime rules' gate (judge/rules.ts), playing the side of `sessionUrl` in session mode. */
  rules: RuleGate<RecordedRequest, string>;
  /** The side of the session-URL disagreement this emulator plays (undefined in token mode). */
  side?: NebimSessionSide;
}

const WAREHOUSES = [
  { WarehouseCode: "M01", WarehouseDescription: "Merkez Mağaza" },
  { WarehouseCode: "D01", WarehouseDescription: "Merkez Depo" },
];

class NebimFail extends Error {
  constructor(
    msg: string,
    readonly http = 500,
  ) {
    super(msg);
  }
}

const s = (v: unknown) => (v === undefined || v === null ? "" : String(v)).trim();
const stack = (where: string) =>
  Buffer.from(
    `   konum: NebimV3.Integrator.${where}()\r\n   konum: System.Web.Mvc.ControllerActionInvoker`,
  ).toString("base64");

export async function startNebimEmulator(opts: NebimEmulatorOptions = {}): Promise<NebimEmulator> {
  const seed = opts.seed ?? 1;
  const mode = opts.mode ?? "session";
  const side = mode === "session" ? (opts.sessionUrl ?? "direct") : undefined;
  const user = {
    DatabaseName: opts.databaseName ?? "NEBIMV3",
    UserGroupCode: opts.userGroupCode ?? "V3",
    UserName: opts.userName ?? "INT",
    Password: opts.password ?? "Nebim-Emu-1",
    OfficeCode: opts.officeCode ?? "M",
    StoreCode: opts.storeCode ?? "M01",
  };
  const procs = { ...NEBIM_DEFAULT_PROCS, ...opts.procs };
  const server = createEmulatorServer<
    EmulatorCounters & { connects: number; posts: number; refused: number }
  >(
    {
      ...opts,
      answers: {
        serverError: {
          status: 503,
          contentType: "text/html",
          body: "<html><body><h1>Service Unavailable</h1></body></html>",
        },
        tooManyRequests: () => "<html><body>Too Many Requests</body></html>",
        lock: {
          status: 500,
          body: {
            ModelType: 0,
            ExceptionMessage:
              "Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.",
            StackTrace: stack("Post"),
          },
        },
        unauthorized: {
          status: 500,
          body: {
            ModelType: 0,
            ExceptionMessage: "Boş akışın serisini kaldırma girişimi.",
            StackTrace: stack("Deserialize"),
          },
        },
      },
    },
    { connects: 0, posts: 0, refused: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const idleMs = opts.sessionIdleMs ?? 20 * 60_000; // IIS default session timeout (inferred)
  const sessions = new Map<string, { last: number; valid: boolean }>();
  const newSessionId = () =>
    randomBytes(12)
      .toString("base64url")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x")
      .slice(0, 24);
  // The runtime rules (judge/rules.ts), playing the session-URL side; each refusal is answered where it
  // happens: IIS's 302 for credentials on a bare URL, the service's error shape for a Post.
  const rules = new RuleGate<RecordedRequest, string>(NEBIM_RULES, (v) => v.rule, { side });
  /** Opens an empty session and answers the URL IIS redirects a bare request to. */
  function sessionLocation(path: string): string {
    const id = newSessionId();
    sessions.set(id, { last: now(), valid: false });
    return path.replace(/\/IntegratorService\//, `/(S(${id}))/IntegratorService/`);
  }

  // Seeded data: every catalogue SKU is an item without colour/size (ItemDimTypeCode 0) whose model groups it
  // with its sizes (the ModelCode / OptionName / OptionValue columns of the products procedure), plus the PDF's
  // sample item K001 in colour 04, sizes 40 and 42, so the colour/size variant path is exercised.
  const catalog = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
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

  function sessionOf(id: string | undefined): { last: number; valid: boolean } {
    const sess = id ? sessions.get(id) : undefined;
    if (!sess || now() - sess.last > idleMs) {
      if (id) sessions.delete(id);
      // docs/99-errors.md: what a lost session answers.
      throw new NebimFail("Boş akışın serisini kaldırma girişimi.");
    }
    sess.last = now();
    return sess;
  }

  function connect(body: unknown, urlSession?: string): Row {
    counters.connects++;
    const b = (typeof body === "object" && body !== null ? body : {}) as Row;
    const given = ["DatabaseName", "UserGroupCode", "UserName", "Password"].some((k) => s(b[k]) !== "");
    // A login without a body uses the Web.config user (docs/01-1), when there is one; with a body it must
    // match. Either way the answer is "Connection Created Successfully" (docs/01-2): only GetUserInfo tells.
    const valid = given
      ? s(b.DatabaseName) === user.DatabaseName &&
        s(b.UserGroupCode) === user.UserGroupCode &&
        s(b.UserName).toUpperCase() === user.UserName.toUpperCase() &&
        s(b.Password) === user.Password
      : opts.webConfigUser === true;
    // A Connect on a session URL signs that session in (the docs' example answers the URL's SessionID).
    const id =
      mode === "session" ? (urlSession ?? newSessionId()) : randomBytes(16).toString("hex").toUpperCase();
    sessions.set(id, { last: now(), valid });
    return {
      ModelType: 0,
      Status: "Connection Created Successfully",
      StatusCode: 200,
      ...(mode === "session" ? { SessionID: id } : { Token: id }),
    };
  }

  function userInfo(sess: { valid: boolean }): Row {
    // inferred: a session whose login failed carries no user.
    if (!sess.valid)
      return { UserGroupCode: "", UserName: "", DatabaseName: "", LangCode: "TR", IsOfficeUser: false };
    return {
      UserGroupCode: user.UserGroupCode,
      UserName: user.UserName,
      DatabaseName: user.DatabaseName,
      LangCode: "TR",
      DataLangCode: "TR",
      RecordInfo: `${user.UserGroupCode.padEnd(5)}${user.UserName}`,
      IsOfficeUser: true,
      IsStoreUser: false,
      IsWarehouseUser: false,
      CompanyCode: 1,
      OfficeCode: user.OfficeCode,
      StoreCode: "",
      WarehouseCode: "",
    };
  }

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
      if (mt === 6 && s(body.StoreCode) !== user.StoreCode)
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

  server.app.route({
    method: ["GET", "POST"],
    url: "/*",
    handler: async (req, reply) => {
      const path = req.url.split("?")[0] ?? req.url;
      const parsed = parseNebimPath(path);
      if (!parsed) return reply.code(404).type("text/html").send("<html><body>404 - Not Found</body></html>");
      const { command, session } = parsed;
      const write = command === "Post";
      const procName = command === "RunProc" ? s((req.body as Row | undefined)?.ProcName) : "";
      const operation = write
        ? `Post:${s((req.body as Row | undefined)?.ModelType)}`
        : procName
          ? `RunProc:${procName}`
          : command;
      const gate = await server.gate(req, reply, { kind: write ? "write" : "read", operation });
      if (gate === "handled") return reply;
      if (side === "cookieless-redirect" && !session) {
        // IIS with cookieless sessions: a URL without the session is redirected to one (a new, empty
        // session); what the rules refuse (credentials on the bare URL) is counted on the way.
        const refused = rules.check({
          at: now(),
          method: req.method,
          path,
          query: req.query as Record<string, unknown>,
          headers: req.headers as Record<string, string | undefined>,
          body: req.body,
        });
        return reply
          .code(302)
          .header("location", refused ?? sessionLocation(req.url))
          .send();
      }
      let answer: unknown;
      let http = 200;
      try {
        if (command === "Connect") answer = connect(req.body, session);
        else {
          const tokenHeader = req.headers.token;
          const id = mode === "session" ? session : Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader;
          if (mode === "token" && session) throw new NebimFail("Oturum durumu kapalı: Token kullanın.", 400);
          const sess = sessionOf(id);
          if (command === "GetUserInfo") answer = userInfo(sess);
          else if (command === "Disconnect") {
            if (id) sessions.delete(id);
            answer = { ModelType: 0, Status: "Disconnected", StatusCode: 200 };
          } else {
            if (!sess.valid) throw new NebimFail("Kullanıcı girişi yapılmamış.");
            const body = (req.body ?? {}) as Row;
            if (command === "RunProc") answer = runProc(body);
            else if (command === "Post") {
              counters.posts++;
              const broken = rules.check({
                at: now(),
                method: req.method,
                path,
                query: {},
                headers: req.headers as Record<string, string | undefined>,
                body,
              });
              // inferred wording: V3's refusal of an internet order without its payment.
              if (broken) throw new NebimFail("İnternet satışı siparişinde ödeme bilgisi (Payments) eksik.");
              answer = post(body);
            } else throw new NebimFail(`${command} bu emülatörde yok.`, 404);
          }
        }
      } catch (e) {
        if (!(e instanceof NebimFail)) throw e;
        server.noteOutcome(true);
        if (/Boş akış/.test(e.message)) counters.authFailures++;
        if (write) counters.refused++;
        answer = { ModelType: 0, ExceptionMessage: e.message, StackTrace: stack(command) };
        http = e.http;
      }
      if (gate === "drop") return server.drop(req, reply);
      return reply.code(http).send(answer);
    },
  });

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    systemType: 1,
    credentials: {
      serviceUrl: url,
      connectMode: mode,
      databaseName: user.DatabaseName,
      userGroupCode: user.UserGroupCode,
      userName: user.UserName,
      password: user.Password,
      orderType: "R",
      officeCode: user.OfficeCode,
      storeCode: user.StoreCode,
      warehouseCode: "M01",
      productsProc: procs.products,
      stockProc: procs.stock,
      pricesProc: procs.prices,
      customerProc: procs.customer,
      orderLookupProc: procs.orderLookup,
    },
    customers,
    orders,
    documentsByOrder() {
      const out = new Map<string, Set<string>>();
      for (const o of orders) {
        const set = out.get(o.DocumentNumber) ?? new Set<string>();
        set.add(o.OrderNumber);
        out.set(o.DocumentNumber, set);
      }
      return out;
    },
    setStock(itemCode, warehouse, qty) {
      for (const r of items) if (r.ItemCode === itemCode) stock.set(`${keyOf(r)}|${warehouse}`, qty);
    },
    setPrice(itemCode, group, amount) {
      for (const r of items)
        if (r.ItemCode === itemCode)
          for (const p of prices.get(keyOf(r)) ?? []) if (p.group === group) p.price = amount;
    },
    expireSessions() {
      for (const v of sessions.values()) v.last = -Infinity;
    },
    rules,
    side,
  };
}
