/**
 * n11's invoice link (SOAP SellerInvoiceService SaveLinkSellerInvoice, invoice-link.ts) against the emulator
 * built from the judge: the package's order gets the link once, n11's `failure` answers come back in its
 * words, a link n11 would refuse (not HTTPS) is refused before any call, and every request is judged.
 */

import { beforeAll, describe, expect, it } from "vitest";
import type { ShopConnector } from "../sdk/connector";
import type { Invoice, Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { ConformanceTally, judgeMarketplaceSuite } from "../testing/contract-suite";
import { createN11Connector } from "./connector";
import { type N11Emulator, startN11Emulator } from "./emulator/server";
import { judgeN11Request, judgeSaveLinkBody } from "./judge/requests";
import { n11Rules } from "./judge/rules";

const store = new InMemoryRateLimitStore();
const ctx = (over = {}) => testContext(store, undefined, over);
const tally = new ConformanceTally(judgeN11Request, n11Rules());
let emu: N11Emulator;
let shop: ShopConnector;
let orders: Order[] = [];

beforeAll(async () => {
  emu = await startN11Emulator({ seed: 11, productCount: 30, orderCount: 8 });
  shop = createN11Connector(emu.credentials, ctx());
  orders = (await shop.listOrders({})).items;
});
judgeMarketplaceSuite("n11 invoice link", tally, () => emu, 2);

const invoice = (url: string): Invoice => ({
  orderRef: "x",
  number: "EPA2026000000001",
  uuid: "u-1",
  date: "2026-11-28",
  currency: "TRY",
  lines: [],
  totals: { net: 0, tax: 0, gross: 0 },
  url,
});

describe("n11 invoice link (SaveLinkSellerInvoice)", () => {
  it("saves the link on the package's order in one SOAP call", async () => {
    const pkg = orders[1] as Order;
    const url = "https://panel.example.com/api/public/invoices/7?t=abc&x=1";
    await shop.attachInvoice(pkg.id, { invoice: invoice(url) });
    const saved = emu.packages.filter((p) => String(p.orderNumber) === pkg.orderNo);
    expect(saved.length).toBeGreaterThan(0);
    for (const p of saved) expect(p.invoiceLink).toBe(url);
    const calls = emu.recorder.list().filter((r) => r.path === "/ws/SellerInvoiceService");
    expect(calls).toHaveLength(1);
    expect(String(calls[0]?.body)).toContain(`<orderNumber>${pkg.orderNo}</orderNumber>`);
    // The ampersand travels escaped in the XML.
    expect(String(calls[0]?.body)).toContain("t=abc&amp;x=1");
  });

  it("refuses a link n11 would not take before calling it", async () => {
    const before = emu.counters.requests;
    const e = await caught(
      shop.attachInvoice(String(orders[2]?.id), { invoice: invoice("http://x.example/1") }),
    );
    expect(e.reason).toBe("validation");
    expect(emu.counters.requests).toBe(before);
  });

  it("reads n11's failure answer (a cancelled order) in its words, sent once", async () => {
    const pkg = orders[3] as Order;
    emu.cancelPackage(pkg.id);
    const saveCalls = () => emu.recorder.list().filter((r) => r.path === "/ws/SellerInvoiceService").length;
    const before = saveCalls();
    const e = await caught(shop.attachInvoice(pkg.id, { invoice: invoice("https://a.example/1") }));
    expect(e.operation).toBe("saveLinkSellerInvoice");
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toBe("İptal edilmiş siparişe fatura linki eklenemez");
    expect(saveCalls()).toBe(before + 1);
  });

  it("the judge refuses a wrong SaveLinkSellerInvoice body", () => {
    expect(judgeSaveLinkBody({ url: "x" })).toEqual(["body must be a SOAP envelope (text/xml)"]);
    const envelope = (inner: string) =>
      `<e xmlns:sch="http://www.n11.com/ws/schemas"><sch:SaveLinkSellerInvoiceRequest>${inner}</sch:SaveLinkSellerInvoiceRequest></e>`;
    expect(
      judgeSaveLinkBody(
        envelope("<auth><appKey>k</appKey></auth><url>http://a</url><invoiceNumber>1</invoiceNumber>"),
      ),
    ).toEqual([
      "auth must carry appKey and appSecret",
      "url must be an https address",
      "orderNumber is required",
      "invoiceNumber is not a field of SaveLinkSellerInvoiceRequest",
    ]);
    expect(
      judgeSaveLinkBody(
        envelope(
          "<auth><appKey>k</appKey><appSecret>s</appSecret></auth><url>https://a</url><orderNumber>1</orderNumber>",
        ),
      ),
    ).toEqual([]);
  });
});
