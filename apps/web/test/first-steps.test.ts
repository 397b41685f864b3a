import type { ConnectionsOverview, ConnectionView, ConnectorInfo, JobDto } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { firstSteps, requiredDone } from "../src/features/dashboard/first-steps";

const connector = (over: Partial<ConnectorInfo>): ConnectorInfo => ({
  connectionType: "erp",
  productType: 1,
  name: "X",
  implemented: true,
  onPremOnly: false,
  einvoice: false,
  availability: "available",
  fields: [],
  ...over,
});

const CONNECTORS = [
  connector({ productType: 4, name: "Logo" }),
  connector({ productType: 1, name: "Nebim", onPremOnly: true, availability: "agent" }),
  connector({ productType: 13, name: "Zirve", onPremOnly: true, availability: "mapping" }),
  connector({ productType: 24, name: "Trendyol e-Faturam", einvoice: true }),
  connector({ connectionType: "ecommerce", productType: 1, name: "IKAS" }),
  connector({
    connectionType: "ecommerce",
    productType: 7,
    name: "JetStok",
    availability: "files",
  }),
];

const saved = (productType: number, state: ConnectionView["status"]["state"], isEmulated = false) =>
  ({
    id: 1,
    connectionType: "erp",
    productType,
    name: CONNECTORS.find((c) => c.productType === productType)?.name ?? "",
    values: {},
    secretsSet: [],
    isEmulated,
    agentId: null,
    lastTest: null,
    status: {
      state,
      message: state === "failed" ? "Kullanıcı adı veya şifre hatalı." : "",
      checked_date: null,
      source: null,
    },
    updatedAt: "2026-11-28T07:00:00.000Z",
  }) as ConnectionView;

const overview = (over: Partial<ConnectionsOverview>): ConnectionsOverview => ({
  erp: null,
  ecommerce: null,
  einvoice: null,
  invoiceRoute: "erp",
  keptLogins: { erp: [], ecommerce: [], einvoice: [] },
  registeredErpType: 4,
  registeredEcommerceType: 1,
  connectors: CONNECTORS,
  ...over,
});

const job = (lastSuccess: string | null) => ({ id: 1, last_success_date: lastSuccess }) as JobDto;
const steps = (o: Partial<ConnectionsOverview>, jobs: JobDto[] = [], notificationsSeen = false) =>
  firstSteps({ overview: overview(o), dashboard: { companyJobs: jobs }, notificationsSeen });
const byId = (list: ReturnType<typeof steps>) => Object.fromEntries(list.map((s) => [s.id, s]));

describe("first steps of a new company", () => {
  it("asks for both connections and offers the sandbox when nothing is saved", () => {
    const s = byId(steps({}));
    expect(s.erp).toMatchObject({
      done: false,
      sandbox: true,
      text: { key: "connection.missing", values: { system: "Logo" } },
      link: { to: "/settings/api-keys", label: "connect" },
    });
    expect(s.shop).toMatchObject({
      done: false,
      text: { key: "connection.missing", values: { system: "IKAS" } },
    });
    expect(s.firstSync).toMatchObject({ done: false, text: { key: "firstSync.noJobs" }, link: null });
    expect(requiredDone(Object.values(s))).toBe(false);
  });

  // Every listed system has a connector now: JetStok, the last "(Yakında)" one, connects through its files,
  // so the cases of a system not ready (its text and its ticket link) went with it.
  it("names the on-site agent for an agent-only ERP and leads JetStok (files) to its connection card", () => {
    const s = byId(steps({ registeredErpType: 1, registeredEcommerceType: 7 }));
    expect(s.erp?.text.key).toBe("connection.agent");
    expect(s.shop?.text).toEqual({ key: "connection.missing", values: { system: "JetStok" } });
    expect(byId(steps({ registeredErpType: 13 })).erp?.text.key).toBe("connection.mapping");
  });

  it("leads each need to where it is met: agent pairing, SQL queries, the connection card, the e-invoice settings", () => {
    const s = byId(steps({ registeredErpType: 1, registeredEcommerceType: 7 }));
    expect(s.erp?.link).toEqual({ to: "/settings/api-keys#agents", label: "pairAgent" });
    expect(s.shop?.link).toEqual({ to: "/settings/api-keys", label: "connect" });
    expect(byId(steps({ registeredErpType: 13 })).erp?.link).toEqual({
      to: "/settings/api-keys#sql-mapping",
      label: "defineQueries",
    });
    // A company registered with an e-invoice service is told it is theirs, by name.
    const service = byId(steps({ registeredErpType: 24 }));
    expect(service.einvoice).toMatchObject({
      done: false,
      text: { key: "einvoice.registered", values: { system: "Trendyol e-Faturam" } },
      link: { to: "/settings/api-keys#connection-erp", label: "einvoiceSettings" },
    });
    expect(byId(steps({})).einvoice).toMatchObject({
      text: { key: "einvoice.missing" },
      // The optional third connection, not the ERP's card.
      link: { to: "/settings/api-keys#connection-einvoice" },
    });
  });

  it("says why a saved connection fails and links to fix it", () => {
    const s = byId(steps({ erp: saved(4, "failed") }));
    expect(s.erp).toMatchObject({
      done: false,
      text: { key: "connection.failed", values: { reason: "Kullanıcı adı veya şifre hatalı." } },
      link: { label: "fix" },
    });
    expect(byId(steps({ erp: saved(4, "failed") })).erp?.sandbox).toBeFalsy();
    expect(byId(steps({ erp: saved(4, "untested") })).erp?.link?.label).toBe("test");
  });

  it("asks for a first run once the jobs exist, and closes when the required steps are done", () => {
    const connected = { erp: saved(4, "connected"), ecommerce: saved(1, "connected") };
    const waiting = byId(steps(connected, [job(null)]));
    expect(waiting.erp?.done && waiting.shop?.done).toBe(true);
    expect(waiting.firstSync).toMatchObject({ done: false, link: { to: "/integration/product" } });
    const done = steps(connected, [job("2026-11-28T07:00:00.000Z")]);
    expect(byId(done).firstSync?.done).toBe(true);
    // The optional e-invoice and notifications steps are still open, yet the card closes.
    expect(byId(done).einvoice?.done).toBe(false);
    expect(requiredDone(done)).toBe(true);
  });

  it("ticks the sandbox as connected, the e-invoice service and the seen notifications", () => {
    const s = byId(
      steps({ erp: saved(24, "connected", true), ecommerce: saved(1, "connected", true) }, [], true),
    );
    expect(s.erp).toMatchObject({ done: true, text: { key: "erp.sandbox" } });
    expect(s.einvoice?.done).toBe(true);
    expect(s.notifications?.done).toBe(true);
  });

  it("ticks the e-invoice step for a Mikro company with an e-invoice service beside its ERP", () => {
    const s = byId(
      steps({
        erp: saved(4, "connected"),
        ecommerce: saved(1, "connected"),
        einvoice: { ...saved(24, "connected"), connectionType: "einvoice" },
        invoiceRoute: "service",
      }),
    );
    expect(s.einvoice).toMatchObject({ done: true, link: null });
  });
});
