import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEInvoiceProvider, createErpConnector, getDescriptor, isEInvoiceType } from "../registry";
import type { ConnectorContext } from "../sdk/connector";
import { type EInvoiceDocument, sendOnce } from "../sdk/einvoice";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { addToReport, type ConformanceReport, describeFailures, judgeRequests } from "../testing/recorder";
import { judgeWithRules, rulesMissingFrom, unsourcedRules } from "../testing/runtime-rules";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { startTrendyolEFaturamEmulator, type TrendyolEFaturamEmulator } from "./emulator/server";
import { bodyProblems, judgeTrendyolEFaturamRequest } from "./judge/requests";
import { TRENDYOL_EFATURAM_VERSION_PIN, trendyolEFaturamRules } from "./judge/rules";
import { TrendyolEFaturamProvider, trendyolInvoiceBody } from "./provider";

let emu: TrendyolEFaturamEmulator;
const store = new InMemoryRateLimitStore();
const conformance: ConformanceReport = { requests: 0, operations: {}, failures: [] };

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, undefined, {
    budget: { requests: 500, windowMs: 1000 },
    retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 },
    ...over,
  });
}
const provider = (over: Partial<ConnectorContext> = {}, password = emu.credentials.password) =>
  new TrendyolEFaturamProvider({ ...emu.credentials, password }, ctx(over));

let serial = 0;
/** A consumer's e-Arşiv (two lines at 20 % and 10 %, one discounted), or an e-Fatura to a registered VKN. */
function document(over: Partial<EInvoiceDocument> = {}): EInvoiceDocument {
  serial++;
  return {
    profile: "EARSIVFATURA",
    type: "SATIS",
    number: `WEB2026${String(serial).padStart(9, "0")}`,
    issueDate: "2026-11-20",
    currency: "TRY",
    buyer: {
      taxId: "11111111111",
      name: "Ayşe",
      surname: "Yılmaz",
      city: "İstanbul",
      district: "Kadıköy",
      address: "Moda Cad. 12",
      email: "ayse@example.com",
      phone: "+90 532 000 00 00",
    },
    lines: [
      {
        name: "Pamuklu Tişört",
        qty: 2,
        vatRate: 20,
        unitPriceK: 25000,
        discountK: 5000,
        netK: 45000,
        taxK: 9000,
      },
      { name: "Kitap", qty: 1, vatRate: 10, unitPriceK: 9091, discountK: 0, netK: 9091, taxK: 909 },
    ],
    // An internet sale (every e-Arşiv sale the panel issues is one): what `invoiceDocument` adds.
    issueTime: "14:05:00",
    internetSale: {
      website: "https://www.anadolu.example",
      sendingType: "ELEKTRONIK",
      payment: { means: "KREDIKARTI/BANKAKARTI", date: "2026-11-20" },
      delivery: { carrier: "Yurtiçi Kargo", carrierTaxNumber: "9860008925", dispatchDate: "2026-11-21" },
    },
    ...over,
  };
}

/** A token from the emulator's sign-in, for hand-made requests. */
async function signedInToken(): Promise<string> {
  const res = await fetch(`${emu.url}/api/auth/signin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: emu.credentials.email, password: emu.credentials.password }),
  });
  return res.headers.get("x-access-token") ?? "";
}

beforeAll(async () => {
  emu = await startTrendyolEFaturamEmulator({ taxpayers: ["1234567890"] });
});
afterAll(async () => {
  await emu.close();
  // Conformance: every request the provider sent in these tests passes the judge and the runtime rules.
  console.log(
    `trendyol-efaturam conformance: ${conformance.requests} requests, ${Object.keys(conformance.operations).length} operations, ${conformance.failures.length} rejected`,
  );
  expect(conformance.failures, describeFailures(conformance)).toEqual([]);
  expect(conformance.requests).toBeGreaterThan(20);
});
afterEach(() => {
  emu.faults.clear();
  // The schema judge and the runtime rules over every request (sequence rules see the emulator's history).
  const r = judgeWithRules(emu.recorder.list(), judgeTrendyolEFaturamRequest, trendyolEFaturamRules);
  emu.recorder.clear();
  addToReport(conformance, r);
});

describe("Trendyol e-Faturam (24) against its emulator", () => {
  it("is registered as an e-invoice service with a Turkish connection form", () => {
    expect(isEInvoiceType(24)).toBe(true);
    const d = getDescriptor("erp", 24);
    expect(d?.implemented).toBe(true);
    expect(d?.credentials.map((c) => c.name)).toEqual(["apiUrl", "email", "password"]);
    expect(d?.credentials.every((c) => /[çğıöşüÇĞİÖŞÜ]|\s/.test(c.help ?? ""))).toBe(true);
    expect(createEInvoiceProvider(24, emu.credentials, ctx())).toBeInstanceOf(TrendyolEFaturamProvider);
  });

  it("signs in (JWT in x-access-token), names the company; a wrong password is an auth failure", async () => {
    const info = await provider().testConnection();
    expect(info).toMatchObject({
      ok: true,
      details: { companyId: emu.account.companyId, userId: emu.account.userId },
    });
    expect((await caught(provider({}, "yanlış").testConnection())).reason).toBe("auth");
    const erp = createErpConnector(24, emu.credentials, ctx());
    expect((await erp.testConnection()).ok).toBe(true);
    expect((await caught(erp.listProducts({}))).reason).toBe("unsupported");
  });

  it("asks the taxpayer list per tax number: registered → e-Fatura, 404 → e-Arşiv", async () => {
    const p = provider();
    expect(await p.isEInvoiceUser("1234567890")).toBe(true);
    expect(await p.isEInvoiceUser("9876543210")).toBe(false);
    expect((await caught(p.listEInvoiceUsers())).reason).toBe("unsupported");
  });

  it("sends an e-Arşiv in its own JSON (kuruş, our number and ETTN), then status, PDF and cancel", async () => {
    const p = provider();
    const ettn = randomUUID();
    const doc = document();
    const sent = await p.sendInvoice({
      ettn,
      xml: "",
      document: doc,
      scenario: "eArchive",
      localId: "SIP-1",
    });
    expect(sent).toMatchObject({ ettn, number: doc.number, status: "queued", existed: false });
    const stored = emu.documents.get(ettn);
    expect(stored?.kind).toBe("earchive");
    expect(stored?.body).toMatchObject({
      autoInvoiceId: false,
      localReferenceId: "SIP-1",
      invoiceInfo: {
        invoiceType: "EARSIVFATURA",
        invoiceTypeCode: "SATIS",
        invoiceId: doc.number,
        invoiceUuid: ettn,
      },
      issuedAt: "2026-11-20T14:05:00+03:00",
      // Lines before discounts (59091) − allowance (5000) = tax exclusive (54091): the samples' convention.
      invoiceTotal: {
        lineExtensionAmount: 59091,
        taxExclusiveAmount: 54091,
        taxInclusiveAmount: 64000,
        payableAmount: 64000,
        allowanceTotalAmount: 5000,
      },
      totalTax: { totalTaxAmount: 9909 },
      paymentInfo: {
        purchaseUrl: "https://www.anadolu.example",
        paymentMeans: "CREDIT_CARD",
        paymentType: "KREDIKARTI/BANKAKARTI",
        paymentDate: "2026-11-20T00:00:00+03:00",
      },
      deliveryInfo: { carrierTaxId: "9860008925", carrierName: "Yurtiçi Kargo", sentAt: "2026-11-21" },
    });
    expect((await p.queryStatus([ettn]))[0]).toMatchObject({
      found: true,
      status: "sent",
      providerStatus: "40",
    });
    expect((await p.queryStatus([ettn]))[0]).toMatchObject({
      found: true,
      status: "approved",
      providerStatus: "205",
    });
    const pdf = await p.getPdf(ettn);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe("%PDF-");
    await p.cancelEArchive(ettn, "müşteri iade etti");
    expect((await p.queryStatus([ettn]))[0]).toMatchObject({ status: "cancelled", providerStatus: "305" });
    expect((await caught(p.cancelEArchive(ettn, "tekrar"))).reason).toBe("conflict");
    expect(await p.queryStatus([randomUUID()])).toEqual([expect.objectContaining({ found: false })]);
  });

  it("an internet-sale e-Arşiv without paymentInfo or deliveryInfo is refused, as the rule says", async () => {
    // A separate emulator: these refused requests are the rule's own examples, not conformance traffic.
    const e = await startTrendyolEFaturamEmulator({ taxpayers: [] });
    try {
      const p = new TrendyolEFaturamProvider(e.credentials, ctx());
      const sale = document().internetSale!;
      const { delivery: _d, ...notShipped } = sale;
      for (const [internetSale, expected] of [
        [undefined, "an e-Arsiv sale without paymentInfo"],
        [notShipped, "an e-Arsiv sale without deliveryInfo"],
        [{ ...sale, delivery: { carrier: "Aras Kargo" } }, "deliveryInfo without sentAt"],
      ] as const) {
        const err = await caught(
          p.sendInvoice({
            ettn: randomUUID(),
            xml: "",
            document: document({ internetSale }),
            scenario: "eArchive",
          }),
        );
        expect(err).toMatchObject({ reason: "validation", systemCode: "ValidationProblem" });
        expect(err.systemMessage).toContain(expected);
      }
      // An IADE is no sale: it needs neither; an intermediary is named.
      const ok = randomUUID();
      await p.sendInvoice({
        ettn: ok,
        xml: "",
        document: document({
          internetSale: { ...sale, payment: { means: "ODEMEARACISI", date: "2026-11-20", agent: "iyzico" } },
        }),
      });
      expect(e.documents.get(ok)?.body.paymentInfo).toMatchObject({
        paymentMeans: "MEDIATOR",
        paymentAgentName: "iyzico",
      });
      const back = randomUUID();
      await p.sendInvoice({
        ettn: back,
        xml: "",
        document: document({
          type: "IADE",
          internetSale: undefined,
          returnOf: { number: "WEB2026000000001", issueDate: "2026-11-20" },
        }),
      });
      expect(e.documents.get(back)).toBeDefined();
    } finally {
      await e.close();
    }
  });

  it("sends an e-Fatura to a registered buyer, and an IADE with its billing reference", async () => {
    const p = provider();
    const ettn = randomUUID();
    const doc = document({
      profile: "TEMELFATURA",
      buyer: { taxId: "1234567890", name: "Örnek Ticaret A.Ş.", city: "Ankara", taxOffice: "Çankaya" },
    });
    expect((await p.sendInvoice({ ettn, xml: "", document: doc, scenario: "eInvoice" })).status).toBe(
      "queued",
    );
    expect(emu.documents.get(ettn)?.kind).toBe("outgoing-einvoice");
    const back = randomUUID();
    const iade = document({ type: "IADE", returnOf: { number: doc.number, issueDate: doc.issueDate, ettn } });
    await p.sendInvoice({ ettn: back, xml: "", document: iade });
    expect(emu.documents.get(back)?.body.billingReference).toEqual({
      invoiceId: doc.number,
      issueDate: doc.issueDate,
      typeCode: "IADE",
    });
    // Its PDF: the download names an e-Fatura EINVOICE (the value live code sends; judge/rules.ts).
    const pdf = await p.getPdf(ettn);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe("%PDF-");
    const downloads = emu.recorder.list().filter((r) => r.path === "/api/invoice/documents/download");
    expect(downloads.map((r) => (r.body as { documentType: string }).documentType)).toEqual([
      "EARCHIVE",
      "EINVOICE",
    ]);
    // An unregistered buyer on the e-Fatura path is refused by the service.
    const refused = await caught(
      p.sendInvoice({
        ettn: randomUUID(),
        xml: "",
        document: document({
          profile: "TEMELFATURA",
          buyer: { taxId: "9876543210", name: "Kayıtsız Ltd", city: "İzmir" },
        }),
      }),
    );
    expect(refused).toMatchObject({ reason: "not_found", systemCode: "TaxPayerNotFoundProblem" });
  });

  it("the emulator refuses what the judge refuses (bad number, missing totals) and a reused ETTN", async () => {
    const ids = { companyId: emu.account.companyId, userId: emu.account.userId };
    const good = trendyolInvoiceBody({ ettn: randomUUID(), xml: "", document: document() }, ids);
    expect(bodyProblems("POST", "/api/invoice/documents/earchive", good)).toEqual([]);
    expect(
      bodyProblems("POST", "/api/invoice/documents/earchive", { ...good, invoiceTotal: undefined }).join(),
    ).toMatch(/invoiceTotal/);
    const p = provider();
    const bad = await caught(
      p.sendInvoice({ ettn: randomUUID(), xml: "", document: document({ number: "WEB26-1" }) }),
    );
    expect(bad).toMatchObject({ reason: "validation", httpStatus: 422, systemCode: "ValidationProblem" });
    const ettn = randomUUID();
    await p.sendInvoice({ ettn, xml: "", document: document() });
    const again = await caught(p.sendInvoice({ ettn, xml: "", document: document() }));
    expect(again).toMatchObject({ reason: "conflict", systemCode: "InvoiceUuidCantBeUsedProblem" });
    expect(
      (await caught(p.sendInvoice({ ettn: randomUUID(), xml: "", document: document(), draft: true })))
        .reason,
    ).toBe("unsupported");
    // Every such refusal left the recorded requests for the judge; the invalid number fails it (and is dropped
    // from the conformance tally, which holds only what our provider sends in earnest).
    const verdicts = judgeRequests(emu.recorder.list(), judgeTrendyolEFaturamRequest);
    expect(verdicts.failures.map((f) => f.operation)).toEqual(["POST /api/invoice/documents/earchive"]);
    emu.recorder.clear();
  });

  it("cuts a buyer name and a line name to the gateway's lengths (127 and 255) instead of being refused", async () => {
    const p = provider();
    const ettn = randomUUID();
    const company = `${"Uzun Ünvanlı Tekstil Gıda İnşaat Turizm Sanayi ve Ticaret ".repeat(4)}Limited Şirketi`;
    const base = document();
    const doc = document({
      buyer: { ...base.buyer, name: company },
      lines: base.lines.map((l, i) => (i === 0 ? { ...l, name: `Pamuklu Tişört ${"XL ".repeat(120)}` } : l)),
    });
    await p.sendInvoice({ ettn, xml: "", document: doc });
    const body = emu.documents.get(ettn)?.body as {
      recipientInfo: { name: string };
      invoiceLines: Array<{ itemName: string }>;
    };
    expect(body.recipientInfo.name).toBe(company.slice(0, 127));
    expect(body.invoiceLines[0]?.itemName).toHaveLength(255);
  });

  it("the runtime rules have sources, VERIFIED.md lists them, and the emulator refuses what they refuse", async () => {
    expect(unsourcedRules(trendyolEFaturamRules)).toEqual([]);
    const verified = readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8");
    expect(rulesMissingFrom(verified, trendyolEFaturamRules)).toEqual([]);
    const p = provider();
    await p.testConnection();
    const token = await signedInToken();
    const ids = { companyId: emu.account.companyId, userId: emu.account.userId };
    const body = trendyolInvoiceBody({ ettn: randomUUID(), xml: "", document: document() }, ids);
    const post = (path: string, json: unknown) =>
      fetch(`${emu.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-access-token": token },
        body: JSON.stringify(json),
      });
    for (const [path, json, rule] of [
      ["/api/invoice/documents/earchive", { ...body, source: "PARTNER" }, "create.source"],
      ["/api/invoice/documents/earchive", { ...body, source: "WEB" }, "create.source"],
      [
        "/api/invoice/documents/download",
        {
          companyId: ids.companyId,
          documentType: "OUTGOING_EINVOICE",
          fileExtension: "pdf",
          invoiceUuid: randomUUID(),
        },
        "download.document-type",
      ],
    ] as const) {
      const res = await post(path, json);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain(`trendyol-efaturam.${rule}`);
    }
    emu.recorder.clear(); // hand-made requests are not the provider's
  });

  it("sendOnce: a timeout, then a stored-but-cut write → looked up by ETTN before each resend, one document", async () => {
    const p = provider({ timeoutMs: 150 });
    const ettn = randomUUID();
    emu.faults.enqueue(
      { kind: "timeout", operation: "createEArchive" },
      { kind: "dropAfterWrite", operation: "createEArchive" },
    );
    const sent = await sendOnce(p, { ettn, xml: "", document: document() });
    expect(sent).toMatchObject({ ettn, existed: true });
    expect([...emu.documents.values()].filter((d) => d.uuid === ettn)).toHaveLength(1);
    const ops = emu.recorder.list().map((r) => r.path.replace(ettn, ":uuid"));
    expect(ops.filter((o) => o === "/api/invoice/documents/earchive")).toHaveLength(2);
    expect(ops).toContain("/api/invoice/documents/earchive/status/:uuid");
  });

  it("5xx on a read is retried; an expired token is renewed once", async () => {
    const p = provider();
    emu.faults.enqueue({ kind: "5xx", operation: "taxpayers" });
    expect(await p.isEInvoiceUser("1234567890")).toBe(true);
    emu.faults.enqueue({ kind: "auth", operation: "taxpayers" });
    expect(await p.isEInvoiceUser("1234567890")).toBe(true);
  });
});

describe("Trendyol e-Faturam API gateway: version pin", () => {
  it("speaks a supported API version", () => expectPinnedVersionSupported(TRENDYOL_EFATURAM_VERSION_PIN));
});
