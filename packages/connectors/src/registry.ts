/**
 * Every ERP and shop type of the spec (section 3), with the adapter when there is one. Adding a connector is
 * one new folder and one line in `MODULES`.
 */

import type { SystemAvailability } from "@ep/contracts";
import { amazonModule } from "./amazon/index";
import { diaModule } from "./dia/index";
import { axModule } from "./dynamics-ax/index";
import { d365Module } from "./dynamics-fo/index";
import { entegraModule } from "./entegra/index";
import { genericSqlModules } from "./generic-sql/index";
import { hepsiburadaModule } from "./hepsiburada/index";
import { ideasoftModule } from "./ideasoft/index";
import { ikasModule } from "./ikas/index";
import { jetstokModule } from "./jetstok/index";
import { logoModules } from "./logo/index";
import { isbasiModule } from "./logo-isbasi/index";
import { lucaKozaModule } from "./luca-koza/index";
import { lucaPortalModule } from "./luca-portal/index";
import { mikroModule } from "./mikro/index";
import { n11Module } from "./n11/index";
import { nebimModule } from "./nebim/index";
import { netsisModule } from "./netsis/index";
import type {
  ConnectorContext,
  ConnectorDescriptor,
  ConnectorKind,
  Credentials,
  ErpConnector,
  ShopConnector,
  ShopWebhooks,
} from "./sdk/connector";
import type {
  ConnectorModule,
  ErpConnectorModule,
  FileShopFiles,
  ShopConnectorModule,
} from "./sdk/connector-module";
import type { EInvoiceProvider } from "./sdk/einvoice";
import { ConnectorError } from "./sdk/errors";
import { countedSqlTransport } from "./sdk/sql";
import { ERP_SYSTEMS, SHOP_SYSTEMS } from "./sdk/systems";
import { sentosModule } from "./sentos/index";
import { shopierModule } from "./shopier/index";
import { shopifyModule } from "./shopify/index";
import { sopyoModule } from "./sopyo/index";
import type { SandboxEntry } from "./testing/sandbox";
import { trendyolModule } from "./trendyol/index";
import { trendyolEFaturamModule } from "./trendyol-efaturam/index";
import { tsoftModule } from "./tsoft/index";
import { uyumsoftModule, uyumsoftPortalModule } from "./uyumsoft/index";
import { wolvoxModules } from "./wolvox/index";

/** Implemented connectors: one line each, so adding one never touches another's line. */
const MODULES: ConnectorModule[] = [
  mikroModule,
  ikasModule,
  shopifyModule,
  tsoftModule,
  sentosModule,
  sopyoModule,
  uyumsoftModule,
  uyumsoftPortalModule,
  diaModule,
  isbasiModule,
  ideasoftModule,
  /** Implemented connectors. */
  d365Module,
  axModule,
  entegraModule,
  shopierModule,
  lucaKozaModule,
  ...genericSqlModules,
  trendyolEFaturamModule,
  lucaPortalModule,
  nebimModule,
  ...wolvoxModules,
  ...logoModules,
  netsisModule,
  jetstokModule,
];

/**
 * Sales channels beside the shop (issue 37): marketplaces a company sells on. They have no number in the
 * spec's shop list and are not offered at registration; the channel model of the server finds them by
 * `system`. One line each.
 */
const SALES_CHANNEL_MODULES: ShopConnectorModule[] = [
  trendyolModule,
  hepsiburadaModule,
  n11Module,
  amazonModule,
];

function placeholder(
  kind: ConnectorKind,
  type: number,
  name: string,
  system: string,
  onPremOnly: boolean,
): ConnectorDescriptor {
  return {
    kind,
    type,
    name,
    system,
    implemented: false,
    credentials: [],
    batch: {},
    budget: { requests: 1, windowMs: 1000 },
    onPremOnly,
  };
}

const erpModules = new Map<number, ErpConnectorModule>();
const shopModules = new Map<number, ShopConnectorModule>();

function isErp(m: ConnectorModule): m is ErpConnectorModule {
  return m.descriptor.kind === "erp";
}

for (const [type, name, system, onPrem] of ERP_SYSTEMS) {
  erpModules.set(type, { descriptor: { ...placeholder("erp", type, name, system, onPrem), kind: "erp" } });
}
for (const [type, name, system] of SHOP_SYSTEMS) {
  shopModules.set(type, { descriptor: { ...placeholder("shop", type, name, system, false), kind: "shop" } });
}
for (const m of MODULES) {
  if (isErp(m)) erpModules.set(m.descriptor.type, m);
  else shopModules.set(m.descriptor.type, m as ShopConnectorModule);
}

/** Descriptors of every type of the spec, in the spec's order (settings screens list them). */
export function listConnectors(kind?: ConnectorKind): ConnectorDescriptor[] {
  const erp = [...erpModules.values()].map((m) => m.descriptor);
  const shop = [...shopModules.values()].map((m) => m.descriptor);
  return kind === "erp" ? erp : kind === "shop" ? shop : [...erp, ...shop];
}

export function getDescriptor(kind: ConnectorKind, type: number): ConnectorDescriptor | undefined {
  return (kind === "erp" ? erpModules.get(type) : shopModules.get(type))?.descriptor;
}

/**
 * How a merchant reaches the system today. An on-premise ERP with a connector is reached through the
 * on-site agent (or directly, when its API is published to the internet); a system with no API works
 * through a configured SQL / file mapping, or (a shop) through the files it exports and imports itself;
 * the rest wait for theirs.
 */
export function availabilityOf(d: ConnectorDescriptor): SystemAvailability {
  if (!d.implemented) return "soon";
  if (d.mapping) return "mapping";
  if (d.fileShop) return "files";
  return d.onPremOnly ? "agent" : "available";
}

function notImplemented(kind: ConnectorKind, type: number): ConnectorError {
  const d = getDescriptor(kind, type);
  return new ConnectorError(`${d?.name ?? `${kind} type ${type}`}: no connector yet`, {
    reason: "unsupported",
    system: d?.system,
  });
}

export function createErpConnector(
  type: number,
  credentials: Credentials,
  ctx: ConnectorContext,
): ErpConnector {
  const module = erpModules.get(type);
  if (!module?.create) throw notImplemented("erp", type);
  // Statements through the agent count as the run's ERP calls, as HTTP requests do.
  const sql = ctx.sql && countedSqlTransport(ctx.sql, ctx.counter, module.descriptor.system);
  return module.create(credentials, sql ? { ...ctx, sql } : ctx);
}

export function createShopConnector(
  type: number,
  credentials: Credentials,
  ctx: ConnectorContext,
): ShopConnector {
  const create = shopModules.get(type)?.create;
  if (!create) throw notImplemented("shop", type);
  return create(credentials, ctx);
}

/** Sales-channel connectors (marketplaces), not in the spec's registration list. */
export function listSalesChannels(): ConnectorDescriptor[] {
  return SALES_CHANNEL_MODULES.map((m) => m.descriptor);
}

export function getSalesChannelDescriptor(system: string): ConnectorDescriptor | undefined {
  return SALES_CHANNEL_MODULES.find((m) => m.descriptor.system === system)?.descriptor;
}

/**
 * The sales channels' sandboxes (order generators included), kept apart from `listSandboxSystems` until
 * the server's channel model connects them: the registration's "Deneme sistemlerine bağlan" is unchanged.
 */
export function listSalesChannelSandboxes(): SandboxEntry[] {
  return SALES_CHANNEL_MODULES.flatMap((m) => (m.sandbox ? [m.sandbox] : []));
}

export function createSalesChannelConnector(
  system: string,
  credentials: Credentials,
  ctx: ConnectorContext,
): ShopConnector {
  const create = SALES_CHANNEL_MODULES.find((m) => m.descriptor.system === system)?.create;
  if (!create)
    throw new ConnectorError(`sales channel ${system}: no connector`, { reason: "unsupported", system });
  return create(credentials, ctx);
}

/** One built-in system a company can connect to without an account of its own. */
export type SandboxSystem = SandboxEntry & {
  kind: ConnectorKind;
  /** The registry's system type (ERP or shop number of the spec). */
  type: number;
};

/** The built-in sandbox systems that can run here, each with its system's kind and type. */
export function listSandboxSystems(): SandboxSystem[] {
  return MODULES.flatMap(({ sandbox, descriptor }) =>
    sandbox && (sandbox.available?.() ?? true)
      ? [{ ...sandbox, kind: descriptor.kind, type: descriptor.type }]
      : [],
  );
}

/** The files of a shop connected through them (JetStok), when the shop type is one. */
export function getFileShop(type: number): FileShopFiles | undefined {
  return shopModules.get(type)?.files;
}

/** The shop type's webhook support (register + verify), when it publishes order webhooks. */
export function getShopWebhooks(type: number): ShopWebhooks | undefined {
  return shopModules.get(type)?.webhooks;
}

/** ERP types that are e-invoice services (Uyumsoft 8, UyumsoftPortal 18, Trendyol e-Faturam 24). */
export function isEInvoiceType(type: number): boolean {
  return erpModules.get(type)?.einvoice !== undefined;
}

/** ERP types whose invoices are generated and exported as files, not sent (LucaPortal 19). */
export function isFileInvoiceType(type: number): boolean {
  return erpModules.get(type)?.fileInvoices === true;
}

export function createEInvoiceProvider(
  type: number,
  credentials: Credentials,
  ctx: ConnectorContext,
): EInvoiceProvider {
  const create = erpModules.get(type)?.einvoice;
  if (!create) throw notImplemented("erp", type);
  return create(credentials, ctx);
}
