import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEInvoiceProvider, createErpConnector, getDescriptor, isEInvoiceType } from "../registry";
import type { ConnectorContext } from "../sdk/connector";
import { type EInvoiceDocument, sendOnce } from "../sdk/einvoice";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { describeFailures, type RecordedRequest } from "../testing/recorder";
import { judgeWithRules, rulesMissingFrom, unsourcedRules } from "../testing/runtime-rules";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { NOT_A_PRODUCT_SOURCE } from "./descriptor";
import { startUyumsoftEmulator, type UyumsoftEmulator } from "./emulator/server";
import { UYUMSOFT_TEST_ACCOUNT } from "./emulator/state";
import { GROUND_TRUTH } from "./judge/artifact";
import { judgeUyumsoftRecorded } from "./judge/conformance";
import { UYUMSOFT_VERSION_PIN, uyumsoftRules } from "./judge/rules";
import { UyumsoftProvider } from "./provider";

type Emu = UyumsoftEmulator & { url: string; endpoint: string; close: () => Promise<void> };

/** GİB's own sample invoice (ground truth, read in place), with the ETTN of the test. */
const GIB_SAMPLE = readFileSync(`${GROUND_TRUTH}ubl-tr-schematron/TemelFaturaOrnegi.xml`, "utf8");
function invoiceXml(ettn: string): string {
  const start = GIB_SAMPLE.indexOf("<Invoice ");
  const end = GIB_SAMPLE.indexOf("</Invoice>") + "</Invoice>".length;
  const doc = `<?xml version="1.0" encoding="UTF-8"?>\n${GIB_SAMPLE.slice(start, end)}`;
  return doc.replace(/<cbc:UUID>[^<]*<\/cbc:UUID>/, `<cbc:UUID>${ettn}</cbc:UUID>`);
}

/** The sample as an e-Arşiv for an internet sale (the phrase GİB asks on one, as our builder writes it). */
function internetSaleXml(ettn: string): string {
  return invoiceXml(ettn)
    .replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, "<cbc:ProfileID>EARSIVFATURA</cbc:ProfileID>")
    .replace(
      /(<cbc:InvoiceTypeCode>[^<]*<\/cbc:InvoiceTypeCode>)/,
      "$1<cbc:Note>Bu satış internet üzerinden yapılmıştır.</cbc:Note>",
    );
}
/** What `invoiceDocument` gives for that sale (only the parts the provider reads matter here). */
const internetSaleDocument: EInvoiceDocument = {
  profile: "EARSIVFATURA",
  type: "SATIS",
  number: "GIB2009000000001",
  issueDate: "2009-01-05",
  issueTime: "14:42:00",
  currency: "TRY",
  buyer: { taxId: "11111111111", name: "Ali", surname: "Yılmaz", city: "İstanbul" },
  lines: [],
  internetSale: {
    website: "https://www.anadolu.example",
    sendingType: "ELEKTRONIK",
    payment: { means: "ODEMEARACISI", date: "2026-11-20", agent: "iyzico" },
    delivery: { carrier: "Yurtiçi Kargo", carrierTaxNumber: "9860008925", dispatchDate: "2026-11-21" },
  },
};

const logs: HttpLogEntry[] = [];
const store = new InMemoryRateLimitStore();
const recordedElsewhere: RecordedRequest[] = [];

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, logs, { companyId: "c-uyum", timeoutMs: 1500, ...over });
}

const creds = (emu: Emu, password = UYUMSOFT_TEST_ACCOUNT.password) => ({
  endpoint: emu.endpoint,
  username: UYUMSOFT_TEST_ACCOUNT.username,
  password,
});

let emu: Emu;
let provider: UyumsoftProvider;

beforeAll(async () => {
  emu = await startUyumsoftEmulator({ seed: 7, validateResponses: true, faults: { hangMs: 3_000 } });
  provider = new UyumsoftProvider(creds(emu), ctx());
});

afterAll(async () => {
  await emu?.close();
});

async function withEmulator<T>(fn: (e: Emu) => Promise<T>, opts = {}): Promise<T> {
  const e = await startUyumsoftEmulator({
    seed: 3,
    validateResponses: true,
    faults: { hangMs: 3_000 },
    ...opts,
  });
  try {
    return await fn(e);
  } finally {
    expect(e.schemaRejections).toEqual([]);
    expect(e.responseProblems).toEqual([]);
    recordedElsewhere.push(...e.server.recorder.list());
    await e.close();
  }
}

describe("uyumsoft connector against the emulator", () => {
  it("tests the connection with WhoAmI and names the firm", async () => {
    const info = await provider.testConnection();
    expect(info.ok).toBe(true);
    expect(info.firm).toBe(UYUMSOFT_TEST_ACCOUNT.title);
    expect(info.description).toContain(UYUMSOFT_TEST_ACCOUNT.vkn);
  });

  it("loads the WSDL and its nine schema parts from the endpoint, through the SDK client", () => {
    const gets = emu.server.recorder.list().filter((r) => r.method === "GET");
    expect(gets.filter((r) => "wsdl" in r.query)).toHaveLength(1);
    expect(new Set(gets.map((r) => r.query.xsd).filter(Boolean)).size).toBe(9);
    expect(logs.some((l) => l.operation === "wsdl")).toBe(true);
  });

  it("sends WS-Security credentials that never reach the logs", () => {
    const post = emu.server.recorder.list().find((r) => r.method === "POST");
    expect(String(post?.body)).toContain("wsse:UsernameToken");
    expect(String(post?.body)).toContain("wsu:Timestamp");
    const secretLogs = logs.filter((l) => l.requestBody?.includes(`>${UYUMSOFT_TEST_ACCOUNT.password}<`));
    expect(secretLogs).toEqual([]);
  });

  it("answers IsEInvoiceUser for seeded and unknown VKNs", async () => {
    const registered = emu.state.users[0]!.vkn;
    expect(await provider.isEInvoiceUser(registered)).toBe(true);
    expect(await provider.isEInvoiceUser("1111111111")).toBe(false);
  });

  it("lists e-Fatura users page by page, and since a date", async () => {
    const paged = new UyumsoftProvider(creds(emu), ctx({ batch: { page: 10 } }));
    const all = await paged.listEInvoiceUsers();
    expect(all.map((u) => u.vkn)).toEqual(emu.state.users.map((u) => u.vkn));
    expect(emu.server.counters.byOperation.GetEInvoiceUsers).toBe(3);
    const cut = new Date(emu.state.users[20]!.firstCreated);
    expect((await paged.listEInvoiceUsers(cut)).map((u) => u.vkn)).toEqual(
      emu.state.users.slice(20).map((u) => u.vkn),
    );
    // The date range goes to the service (FilterEInvoiceUsers), not filtered here: one page for 5 users.
    expect(emu.server.counters.byOperation.FilterEInvoiceUsers).toBe(1);
  });

  it("sends GİB's sample invoice, follows its status and fetches its PDF", async () => {
    const ettn = randomUUID();
    const sent = await provider.sendInvoice({ ettn, xml: invoiceXml(ettn), localId: "SIP-1001" });
    expect(sent).toMatchObject({ ettn, status: "queued", existed: false });
    expect(sent.number).toBe("TST2013000000766");
    expect(emu.state.find(ettn)?.localId).toBe("SIP-1001");

    expect(await provider.queryStatus([ettn, "00000000-0000-0000-0000-000000000000"])).toEqual([
      { ettn, found: true, status: "queued", providerStatus: "Queued" },
      { ettn: "00000000-0000-0000-0000-000000000000", found: false },
    ]);
    emu.state.setStatus(ettn, "Approved");
    expect((await provider.queryStatus([ettn]))[0]?.status).toBe("approved");
    emu.state.setStatus(ettn, "Declined");
    expect((await provider.queryStatus([ettn]))[0]?.status).toBe("rejected");

    const pdf = Buffer.from(await provider.getPdf(ettn));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1")).toContain(ettn);
    expect((await caught(provider.getPdf(randomUUID()))).reason).toBe("validation");
  });

  it("keeps a draft with SaveAsDraft when the company approves first", async () => {
    const ettn = randomUUID();
    const sent = await provider.sendInvoice({ ettn, xml: invoiceXml(ettn), draft: true });
    expect(sent.status).toBe("draft");
    expect(emu.server.counters.byOperation.SaveAsDraft).toBe(1);
    expect((await provider.queryStatus([ettn]))[0]).toMatchObject({
      status: "draft",
      providerStatus: "Draft",
    });
  });

  it("cancels an e-Arşiv invoice, and refuses to cancel an e-Fatura", async () => {
    const archive = randomUUID();
    await provider.sendInvoice({ ettn: archive, xml: invoiceXml(archive), scenario: "eArchive" });
    await provider.cancelEArchive(archive, "Müşteri iade etti");
    expect((await provider.queryStatus([archive]))[0]?.status).toBe("cancelled");

    const commercial = randomUUID();
    await provider.sendInvoice({ ettn: commercial, xml: invoiceXml(commercial), scenario: "eInvoice" });
    const e = await caught(provider.cancelEArchive(commercial, "yanlış"));
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toContain("e-Arşiv");
  });

  it("an e-Arşiv internet sale carries InternetSalesInfo filled from the document (web, payment, shipment)", async () => {
    const ettn = randomUUID();
    const before = emu.server.recorder.list().length;
    await provider.sendInvoice({
      ettn,
      xml: internetSaleXml(ettn),
      scenario: "eArchive",
      document: internetSaleDocument,
    });
    const body = String(
      emu.server.recorder
        .list()
        .slice(before)
        .find((r) => r.method === "POST")?.body,
    );
    expect(body.replace(/\s*xmlns(:\w+)?="[^"]*"/g, "").replace(/<(\/?)\w+:/g, "<$1")).toContain(
      '<EArchiveInvoiceInfo DeliveryType="Electronic"><InternetSalesInfo><WebAddress>https://www.anadolu.example</WebAddress><PaymentMidierName>iyzico</PaymentMidierName><PaymentType>ODEMEARACISI</PaymentType><PaymentDate>2026-11-20T00:00:00+03:00</PaymentDate><ShipmentInfo><SendDate>2026-11-21T00:00:00+03:00</SendDate><Carier SenderTcknVkn="9860008925" SenderName="Yurtiçi Kargo"></Carier></ShipmentInfo></InternetSalesInfo></EArchiveInvoiceInfo>',
    );
    expect(emu.state.find(ettn)).toBeDefined();
    // Paper delivery, not dispatched yet: DeliveryType Paper, no ShipmentInfo (its SendDate is required).
    const paper = randomUUID();
    const { delivery: _d, ...noDelivery } = internetSaleDocument.internetSale!;
    await provider.sendInvoice({
      ettn: paper,
      xml: internetSaleXml(paper),
      scenario: "eArchive",
      document: { ...internetSaleDocument, internetSale: { ...noDelivery, sendingType: "KAGIT" } },
    });
    expect(emu.state.find(paper)).toBeDefined();
  });

  it("the emulator refuses an internet-sale e-Arşiv without its internet-sales block, as the rule says", async () => {
    // A separate emulator: these refused requests are the rule's own examples, not conformance traffic.
    const e = await startUyumsoftEmulator({ seed: 5, validateResponses: true });
    try {
      const p = new UyumsoftProvider(creds(e), ctx());
      const ettn = randomUUID();
      const err = await caught(p.sendInvoice({ ettn, xml: internetSaleXml(ettn), scenario: "eArchive" }));
      expect(err.reason).toBe("validation");
      expect(err.systemMessage).toContain("uyumsoft.earchive.internet-sales-info");
      expect(e.state.find(ettn)).toBeUndefined();
      const noDate = randomUUID();
      const sale = internetSaleDocument.internetSale!;
      const half = await caught(
        p.sendInvoice({
          ettn: noDate,
          xml: internetSaleXml(noDate),
          scenario: "eArchive",
          document: { ...internetSaleDocument, internetSale: { ...sale, website: "" } },
        }),
      );
      expect(half.systemMessage).toContain("InternetSalesInfo without WebAddress");
      // The same sale with the block goes through; an e-Arşiv that is no internet sale needs none.
      const full = randomUUID();
      await p.sendInvoice({
        ettn: full,
        xml: internetSaleXml(full),
        scenario: "eArchive",
        document: internetSaleDocument,
      });
      const plain = randomUUID();
      await p.sendInvoice({ ettn: plain, xml: invoiceXml(plain), scenario: "eArchive" });
      expect(e.state.find(plain)).toBeDefined();
      expect(e.schemaRejections).toEqual([]);
    } finally {
      await e.close();
    }
  });

  it("refuses a document that is not a UBL Invoice before sending anything", async () => {
    const before = emu.server.counters.requests;
    const e = await caught(provider.sendInvoice({ ettn: randomUUID(), xml: "<CreditNote/>" }));
    expect(e.reason).toBe("validation");
    expect(emu.server.counters.requests).toBe(before);
  });

  it("a second send of a known ETTN is refused by the service, not stored twice", async () => {
    const ettn = randomUUID();
    await provider.sendInvoice({ ettn, xml: invoiceXml(ettn) });
    const e = await caught(provider.sendInvoice({ ettn, xml: invoiceXml(ettn) }));
    expect(e.reason).toBe("validation");
    expect([...emu.state.outbox.values()].filter((i) => i.ettn === ettn)).toHaveLength(1);
  });
});

describe("uyumsoft faults", () => {
  it("a wrong password is an auth failure (WS-Security fault), not retried", async () => {
    await withEmulator(async (e) => {
      const bad = new UyumsoftProvider(creds(e, "yanlis"), ctx());
      const err = await caught(bad.testConnection());
      expect(err.reason).toBe("auth");
      expect(e.server.counters.byOperation.WhoAmI).toBe(1);
    });
  });

  it("a refused credential mid-session (expired / revoked user) is reported as auth", async () => {
    await withEmulator(async (e) => {
      const p = new UyumsoftProvider(creds(e), ctx());
      await p.testConnection();
      e.server.faults.enqueue({ kind: "auth", operation: "IsEInvoiceUser" });
      const err = await caught(p.isEInvoiceUser("1234567890"));
      expect(err.reason).toBe("auth");
      // Every message carries the UsernameToken: no session to renew, the next call goes through.
      expect(await p.isEInvoiceUser(e.state.users[1]!.vkn)).toBe(true);
    });
  });

  it("reads survive 429 (Retry-After), a SOAP server fault and a timeout", async () => {
    await withEmulator(async (e) => {
      const p = new UyumsoftProvider(creds(e), ctx());
      await p.testConnection();
      e.server.faults.enqueue(
        { kind: "429", operation: "QueryOutboxInvoiceStatus" },
        { kind: "5xx", operation: "QueryOutboxInvoiceStatus" },
        { kind: "timeout", operation: "QueryOutboxInvoiceStatus" },
      );
      expect(await p.queryStatus(["x"])).toEqual([{ ettn: "x", found: false }]);
      expect(e.server.counters.byOperation.QueryOutboxInvoiceStatus).toBe(4);
      expect(e.server.counters.faults).toMatchObject({ "429": 1, "5xx": 1, timeout: 1 });
    });
  });

  it("a SendInvoice whose answer is lost is not re-sent by the client: maybeApplied", async () => {
    await withEmulator(async (e) => {
      const p = new UyumsoftProvider(creds(e), ctx());
      const ettn = randomUUID();
      e.server.faults.enqueue({ kind: "dropAfterWrite", operation: "SendInvoice" });
      const err = await caught(p.sendInvoice({ ettn, xml: invoiceXml(ettn) }));
      expect(err.maybeApplied).toBe(true);
      expect(e.server.counters.byOperation.SendInvoice).toBe(1);
      expect(e.state.find(ettn)).toBeDefined();
    });
  });

  it("sendOnce: timeout, then dropped write: looks the ETTN up before each resend, one invoice in the outbox", async () => {
    await withEmulator(async (e) => {
      const p = new UyumsoftProvider(creds(e), ctx());
      const ettn = randomUUID();
      e.server.faults.enqueue(
        // The first send hangs and is never stored: the lookup says "unknown", so it is sent again.
        { kind: "timeout", operation: "SendInvoice" },
        // The second is stored, then the connection is cut: the lookup finds it, nothing is sent again.
        { kind: "dropAfterWrite", operation: "SendInvoice" },
      );
      const sent = await sendOnce(p, { ettn, xml: invoiceXml(ettn) });
      expect(sent).toMatchObject({ ettn, existed: true, status: "queued" });
      expect(e.server.counters.byOperation.SendInvoice).toBe(2);
      expect(e.server.counters.byOperation.QueryOutboxInvoiceStatus).toBe(2);
      expect(e.state.outbox.size).toBe(1);
      // The status answer has no number (InvoiceStatusInfo carries none): the stored one is the document's.
      expect(e.state.find(ettn)?.number).toBe("TST2013000000766");
      // Order of calls: send, lookup, send, lookup — never two sends without a lookup between them.
      const ops = e.server.recorder
        .list()
        .filter((r) => r.method === "POST")
        .map((r) => String(r.headers.soapaction).replace(/^.*\/|"/g, ""));
      expect(ops).toEqual([
        "SendInvoice",
        "QueryOutboxInvoiceStatus",
        "SendInvoice",
        "QueryOutboxInvoiceStatus",
      ]);
    });
  });

  it("sendOnce passes refusals straight up without a lookup", async () => {
    await withEmulator(async (e) => {
      const p = new UyumsoftProvider(creds(e, "yanlis"), ctx());
      const ettn = randomUUID();
      expect((await caught(sendOnce(p, { ettn, xml: invoiceXml(ettn) }))).reason).toBe("auth");
      expect(e.server.counters.byOperation.QueryOutboxInvoiceStatus).toBeUndefined();
    });
  });
});

describe("uyumsoft as ERP types 8 and 18", () => {
  it("registers both types; catalogue reads say it is not a product source", async () => {
    expect(isEInvoiceType(8)).toBe(true);
    expect(isEInvoiceType(18)).toBe(true);
    expect(isEInvoiceType(9)).toBe(false);
    expect(getDescriptor("erp", 18)).toMatchObject({ name: "UyumsoftPortal", implemented: true });
    expect(getDescriptor("erp", 8)?.credentials.map((c) => c.name)).toEqual([
      "endpoint",
      "username",
      "password",
    ]);
    const erp = createErpConnector(18, creds(emu), ctx());
    expect((await erp.testConnection()).ok).toBe(true);
    const e = await caught(erp.listProducts());
    expect(e.reason).toBe("unsupported");
    expect(e.message).toContain(NOT_A_PRODUCT_SOURCE);
    expect(e.merchantMessage).toContain(NOT_A_PRODUCT_SOURCE);
    const p = createEInvoiceProvider(8, creds(emu), ctx());
    expect(await p.isEInvoiceUser(emu.state.users[2]!.vkn)).toBe(true);
  });

  it("a wrong service address fails the connection test with the HTTP reason, not a crash", async () => {
    const p = new UyumsoftProvider({ ...creds(emu), endpoint: `${emu.url}/Services/Yanlis` }, ctx());
    const e = await caught(p.testConnection());
    expect(e.reason).toBe("not_found");
    expect(e.operation).toBe("wsdl");
  });

  it("missing settings are a config failure", () => {
    expect(() => createEInvoiceProvider(8, { endpoint: emu.endpoint }, ctx())).toThrow(/username, password/);
  });
});

describe("uyumsoft conformance (judge: the vendor WSDL and XSDs)", () => {
  it("the judge refuses what the WSDL does not allow", async () => {
    const judge = await judgeUyumsoftRecorded();
    const env = (body: string) =>
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;
    const req = (action: string, body: string): RecordedRequest => ({
      at: 0,
      method: "POST",
      path: "/Services/Integration",
      query: {},
      headers: {
        soapaction: `"http://tempuri.org/IIntegration/${action}"`,
        "content-type": "text/xml; charset=utf-8",
      },
      body: env(body),
    });
    const ok = judge(
      req(
        "IsEInvoiceUser",
        `<IsEInvoiceUser xmlns="http://tempuri.org/"><vknTckn>1</vknTckn></IsEInvoiceUser>`,
      ),
    );
    expect(ok?.problems).toEqual([]);
    const wrongChild = judge(
      req("IsEInvoiceUser", `<IsEInvoiceUser xmlns="http://tempuri.org/"><vkn>1</vkn></IsEInvoiceUser>`),
    );
    expect(wrongChild?.problems.join()).toMatch(/not expected/);
    const unknown = judge(req("SendInvoices", `<SendInvoices xmlns="http://tempuri.org/"/>`));
    expect(unknown?.problems).toEqual(["not an operation of the WSDL"]);
    const badScenario = judge(
      req(
        "SendInvoice",
        `<SendInvoice xmlns="http://tempuri.org/"><invoices><InvoiceInfo><Scenario>Paper</Scenario><CreateDateUtc>2026-01-01T00:00:00Z</CreateDateUtc></InvoiceInfo></invoices></SendInvoice>`,
      ),
    );
    expect(badScenario?.problems.join()).toMatch(/Scenario/);
    expect(judge({ ...req("x", ""), method: "DELETE" })).toBeUndefined();
  });

  it("every request the connector sent conforms", async () => {
    expect(emu.schemaRejections).toEqual([]);
    expect(emu.responseProblems).toEqual([]);
    expect(emu.server.recorder.dropped).toBe(0);
    const judge = await judgeUyumsoftRecorded();
    const report = judgeWithRules(
      [...emu.server.recorder.list(), ...recordedElsewhere],
      judge,
      uyumsoftRules,
    );
    expect(unsourcedRules(uyumsoftRules)).toEqual([]);
    expect(
      rulesMissingFrom(readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8"), uyumsoftRules),
    ).toEqual([]);
    const ops = Object.keys(report.operations).filter((o) => !o.startsWith("GET"));
    console.info(
      `uyumsoft conformance: ${report.requests} requests, ${ops.length} WSDL operations (${ops.sort().join(", ")}), ${report.failures.length} rejected`,
    );
    expect(report.failures, describeFailures(report)).toEqual([]);
    expect(ops.sort()).toEqual([
      "CancelEArchiveInvoice",
      "FilterEInvoiceUsers",
      "GetEInvoiceUsers",
      "GetOutboxInvoicePdf",
      "IsEInvoiceUser",
      "QueryOutboxInvoiceStatus",
      "SaveAsDraft",
      "SendInvoice",
      "WhoAmI",
    ]);
  });
});

describe("Uyumsoft e-Dönüşüm Integration service: version pin", () => {
  it("speaks a supported API version", () => expectPinnedVersionSupported(UYUMSOFT_VERSION_PIN));
});
