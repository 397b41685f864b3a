import {
  availabilityOf,
  type ConnectorDescriptor,
  ConnectorError,
  type ConnectorKind,
  getDescriptor,
  isEInvoiceType,
  listConnectors,
  OUTBOUND_REFUSED,
  versionPinStatus,
} from "@ep/connectors";
import {
  type ConnectionsOverview,
  type ConnectionTest,
  type ConnectionType,
  type ConnectionView,
  type ConnectorInfo,
  type FieldError,
  type KeptLogin,
  type MessageKey,
  message,
} from "@ep/contracts";
import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { AgentService, offlineText } from "../agents/service.ts";
import { ChannelService } from "../channels/service.ts";
import { ConnectionCheckService } from "../connection-check/service.ts";
import { connectorFor } from "../connections/connector-factory.ts";
import { credentialFieldsOf } from "../connections/credential-fields.ts";
import {
  type ConnectionKind,
  type ConnectionRow,
  findConnection,
  listConnectionProfiles,
  openCredentials,
  recordConnectionTest,
  saveConnection,
} from "../connections/repository.ts";
import {
  CONNECTION_FAILURE_MESSAGES,
  connectionStatus,
  lastRunOutcomes,
  type RunOutcome,
} from "../dashboard/connection-status.ts";
import { invoiceRouteOf, issuesInvoices } from "../invoices/route.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { WebhookService } from "../webhooks/service.ts";

/** Where each connection is stored. */
export const KIND_OF: Record<ConnectionType, ConnectionKind> = {
  erp: "erp",
  ecommerce: "shop",
  einvoice: "einvoice",
};
/** Which of the registry's lists a connection's systems come from: an e-invoice service is on the ERP list. */
export const SYSTEMS_OF: Record<ConnectionType, ConnectorKind> = {
  erp: "erp",
  ecommerce: "shop",
  einvoice: "erp",
};

/** The Turkish warning for a connector whose API version is past its vendor's end of support, or null. */
export function supportWarningOf(d: ConnectorDescriptor, now: Date = new Date()): string | null {
  const pin = d.versionPin;
  if (!pin?.endOfSupport || versionPinStatus(pin, now).ok) return null;
  return message("connectionSettings.supportEnded", {
    system: d.name,
    version: pin.version,
    date: pin.endOfSupport.split("-").reverse().join("."),
  });
}

function infoOf(d: ConnectorDescriptor, connectionType?: ConnectionType): ConnectorInfo {
  return {
    connectionType: connectionType ?? (d.kind === "erp" ? "erp" : "ecommerce"),
    productType: d.type,
    name: d.name,
    implemented: d.implemented,
    onPremOnly: d.onPremOnly,
    einvoice: d.kind === "erp" && isEInvoiceType(d.type),
    availability: availabilityOf(d),
    limitations: [...new Set([...Object.values(d.unsupported ?? {}), ...(d.notice ? [d.notice] : [])])],
    supportWarning: supportWarningOf(d),
    fields: credentialFieldsOf(d),
  };
}

/** Plain fields in clear, secret fields only as "set", never their value. */
function maskedCredentials(d: ConnectorDescriptor | undefined, credentials: Record<string, string>) {
  const values: Record<string, string> = {};
  const secretsSet: string[] = [];
  for (const f of d?.credentials ?? []) {
    const v = credentials[f.name];
    if (f.secret) {
      if (v) secretsSet.push(f.name);
    } else values[f.name] = v ?? "";
  }
  return { values, secretsSet };
}

/** What the panel may see of a stored connection: secrets only as "set", never their value. */
function viewOf(
  connectionType: ConnectionType,
  row: ConnectionRow,
  credentials: Record<string, string>,
  runs: RunOutcome[],
): ConnectionView {
  const d = getDescriptor(SYSTEMS_OF[connectionType], row.systemType);
  const { values, secretsSet } = maskedCredentials(d, credentials);
  return {
    id: row.id,
    connectionType,
    productType: row.systemType,
    name: d?.name ?? String(row.systemType),
    values,
    secretsSet,
    isEmulated: row.isEmulated,
    agentId: row.agentId,
    lastTest:
      row.lastTestAt && row.lastTestOk !== null
        ? {
            ok: row.lastTestOk,
            message: row.lastTestMessage ?? "",
            testedAt: row.lastTestAt.toISOString(),
          }
        : null,
    // The service takes no part in the product and order runs: its status is its last test.
    status: connectionStatus(
      SYSTEMS_OF[connectionType],
      { ...row, kind: SYSTEMS_OF[connectionType] },
      connectionType === "einvoice" ? [] : runs,
    ),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const isHttpUrl = (v: string) => {
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/** Connections of a company (spec: settings/api-keys): read masked, save, test against the live system. */
export class ConnectionService {
  constructor(private readonly ctx: AppContext & WithEngine & WithSandbox) {}

  private get db() {
    return this.ctx.database.db;
  }

  private descriptor(connectionType: ConnectionType, productType: number): ConnectorDescriptor {
    const d = getDescriptor(SYSTEMS_OF[connectionType], productType);
    if (!d) throw AppError.notFound();
    // The e-invoice service is one of the systems that issue invoices, never another ERP.
    if (connectionType === "einvoice" && !issuesInvoices(d.type)) throw AppError.notFound();
    return d;
  }

  async overview(companyId: number): Promise<ConnectionsOverview> {
    const [company] = await this.db
      .select({ erpType: companies.erpType, ecommerceType: companies.ecommerceType })
      .from(companies)
      .where(eq(companies.id, companyId));
    if (!company) throw AppError.notFound();
    const runs = await lastRunOutcomes(this.db, companyId);
    const side = async (type: ConnectionType) => {
      const row = await findConnection(this.db, companyId, KIND_OF[type]);
      return row ? viewOf(type, row, openCredentials(this.ctx.credentials, row), runs) : null;
    };
    const kept = async (type: ConnectionType): Promise<KeptLogin[]> =>
      (await listConnectionProfiles(this.db, companyId, KIND_OF[type])).map((p) => ({
        productType: p.systemType,
        ...maskedCredentials(
          getDescriptor(SYSTEMS_OF[type], p.systemType),
          openCredentials(this.ctx.credentials, p),
        ),
        agentId: p.agentId,
      }));
    return {
      erp: await side("erp"),
      ecommerce: await side("ecommerce"),
      einvoice: await side("einvoice"),
      invoiceRoute: (await invoiceRouteOf(this.db, companyId)).route,
      keptLogins: {
        erp: await kept("erp"),
        ecommerce: await kept("ecommerce"),
        einvoice: await kept("einvoice"),
      },
      registeredErpType: company.erpType,
      registeredEcommerceType: company.ecommerceType,
      connectors: [
        ...listConnectors().map((d) => infoOf(d)),
        // The same systems offered again as the optional third connection.
        ...listConnectors("erp")
          .filter((d) => issuesInvoices(d.type))
          .map((d) => ({ ...infoOf(d, "einvoice"), onPremOnly: false })),
      ],
    };
  }

  /**
   * The login a form starts from: the connection in use when it is of this system and the form edits it
   * (a real one, or the sandbox's own login sent again), otherwise the real login kept for this system.
   */
  private async startingLogin(
    companyId: number,
    kind: ConnectionKind,
    d: ConnectorDescriptor,
    row: ConnectionRow | undefined,
    fields: Record<string, string> | undefined,
  ): Promise<{ stored: Record<string, string>; fromConnection: boolean }> {
    const current = row && row.systemType === d.type ? openCredentials(this.ctx.credentials, row) : undefined;
    const editsCurrent =
      !!current &&
      (!row?.isEmulated ||
        d.credentials.every(
          (f) => f.secret || fields?.[f.name] === undefined || fields[f.name]?.trim() === current[f.name],
        ));
    if (current && editsCurrent) return { stored: current, fromConnection: true };
    const kept = (await listConnectionProfiles(this.db, companyId, kind)).find(
      (p) => p.systemType === d.type,
    );
    if (kept) return { stored: openCredentials(this.ctx.credentials, kept), fromConnection: false };
    return { stored: current ?? {}, fromConnection: !!current };
  }

  /**
   * The credentials a form stands for: the starting login's, overwritten by what the form sends (an
   * empty secret keeps the stored one), checked against the declared fields.
   */
  private async merge(
    companyId: number,
    connectionType: ConnectionType,
    d: ConnectorDescriptor,
    fields: Record<string, string> | undefined,
  ) {
    const row = await findConnection(this.db, companyId, KIND_OF[connectionType]);
    const { stored, fromConnection } = await this.startingLogin(
      companyId,
      KIND_OF[connectionType],
      d,
      row,
      fields,
    );
    const errors: FieldError[] = [];
    const declared = new Set(d.credentials.map((f) => f.name));
    for (const name of Object.keys(fields ?? {})) {
      if (!declared.has(name))
        errors.push({ field: `fields.${name}`, message: message("connectionSettings.unknownField") });
    }
    const credentials: Record<string, string> = {};
    for (const f of d.credentials) {
      const sent = fields?.[f.name]?.trim();
      const value = sent === undefined || (f.secret && sent === "") ? (stored[f.name] ?? "") : sent;
      const field = `fields.${f.name}`;
      if (value === "") {
        if (f.required) errors.push({ field, message: message("connectionSettings.fieldRequired") });
        continue;
      }
      if (f.type === "url" && !isHttpUrl(value))
        errors.push({ field, message: message("connectionSettings.urlInvalid") });
      if (f.type === "number" && !/^\d{1,12}$/.test(value))
        errors.push({ field, message: message("connectionSettings.numberInvalid") });
      credentials[f.name] = value;
    }
    if (errors.length > 0) throw AppError.validation(errors);
    const unchanged = fromConnection && sameCredentials(stored, credentials);
    return { row, credentials, unchanged };
  }

  /**
   * Saves a side's connection and tests it at once (its status is that test). A working pair —
   * both sides saved and their last tests passed — gets the company's jobs.
   */
  async save(
    companyId: number,
    userId: number,
    connectionType: ConnectionType,
    productType: number,
    fields: Record<string, string>,
    agentId?: number | null,
  ): Promise<{ connection: ConnectionView; jobsReady: boolean }> {
    const d = this.descriptor(connectionType, productType);
    if (!d.implemented) throw new AppError(400, "connectionSettings.unsupportedSystem");
    const { row: before, credentials, unchanged } = await this.merge(companyId, connectionType, d, fields);
    const kind = KIND_OF[connectionType];
    const via = await this.chosenAgent(companyId, agentId, before);
    const saved = await saveConnection(this.db, this.ctx.credentials, {
      companyId,
      kind,
      systemType: productType,
      credentials,
      // A sandbox is marked by its credentials: other ones saved ("Gerçek sisteme geç") end the mark.
      isEmulated:
        (unchanged && !!before?.isEmulated) ||
        this.ctx.sandbox.owns(companyId, d.kind, productType, credentials),
      agentId: via,
    });
    const outcome = await this.probe(companyId, d, credentials, via);
    const test = { ok: outcome.ok, message: outcome.message, at: new Date(outcome.testedAt) };
    await recordConnectionTest(this.db, saved.id, test);
    if (test.ok && kind !== "einvoice") await this.checkQuietly(companyId, kind);
    const row = { ...saved, lastTestAt: test.at, lastTestOk: test.ok, lastTestMessage: test.message };
    const jobsReady = await this.jobsForWorkingPair(companyId);
    if (kind === "shop" && test.ok) await new WebhookService(this.ctx).registerQuietly(companyId);
    if (!unchanged) {
      await recordActivity(this.db, { companyId, userId, action: "connectionChanged", detail: d.name });
    }
    this.ctx.logger.info({ companyId, kind, system: d.system, changed: !unchanged }, "connection saved");
    const runs = await lastRunOutcomes(this.db, companyId);
    return { connection: viewOf(connectionType, row, credentials, runs), jobsReady };
  }

  /** The connection check beside the test (issue 36): its failure never fails the save. */
  private async checkQuietly(companyId: number, kind: ConnectorKind): Promise<void> {
    await new ConnectionCheckService(this.ctx)
      .run(companyId, kind, "save")
      .catch((error: unknown) =>
        this.ctx.logger.warn({ err: error, companyId, kind }, "connection check failed"),
      );
  }

  /** The agent a form names (one of the company's, not revoked), or the stored one when it names none. */
  private async chosenAgent(
    companyId: number,
    agentId: number | null | undefined,
    row: ConnectionRow | undefined,
  ): Promise<number | null> {
    if (agentId === undefined) return row?.agentId ?? null;
    if (agentId === null) return null;
    if (!(await new AgentService(this.ctx).owns(companyId, agentId))) {
      throw AppError.validation([{ field: "agentId", message: message("validation.fieldInvalid") }]);
    }
    return agentId;
  }

  /** Creates the jobs once both sides are saved and tested fine; answers whether the company has them. */
  private async jobsForWorkingPair(companyId: number): Promise<boolean> {
    const [erp, shop] = await Promise.all([
      findConnection(this.db, companyId, "erp"),
      findConnection(this.db, companyId, "shop"),
    ]);
    if (erp?.lastTestOk && shop?.lastTestOk) {
      await ensureCompanyJobs(this.db, companyId, this.ctx.clock.now());
    }
    // Marketplace channels connected before the ERP get their jobs once it is there.
    if (erp?.lastTestOk) await new ChannelService(this.ctx).ensureJobs(companyId);
    const [job] = await this.db
      .select({ id: engineSchema.jobs.id })
      .from(engineSchema.jobs)
      .where(eq(engineSchema.jobs.companyId, companyId))
      .limit(1);
    return !!job;
  }

  /** The connector's own test, its outcome in Turkish; no credential reaches the log. */
  private async probe(
    companyId: number,
    d: ConnectorDescriptor,
    credentials: Record<string, string>,
    agentId: number | null,
  ): Promise<ConnectionTest> {
    const at = this.ctx.clock.now();
    const result = (key: MessageKey, params: Record<string, string>, ok = false): ConnectionTest => ({
      ok,
      message: message(key, params),
      testedAt: at.toISOString(),
    });
    // Through an agent that is not connected, say so at once rather than wait out its bound.
    if (agentId !== null) {
      const agent = (await new AgentService(this.ctx).list(companyId)).find((a) => a.id === agentId);
      if (!agent?.online) {
        return { ok: false, message: agent?.statusText ?? offlineText(null), testedAt: at.toISOString() };
      }
    }
    let outcome: ConnectionTest;
    let reason = "ok";
    try {
      const connector = connectorFor(this.ctx, companyId, d.kind, d.type, credentials, agentId);
      const info = await connector.testConnection();
      outcome = result("connectionSettings.testOk", { description: info.description }, true);
    } catch (error) {
      reason = error instanceof ConnectorError ? error.reason : "unexpected";
      // A refused address reads like any unreachable one: no hint of what answers where (port scans).
      const refused = error instanceof ConnectorError && error.systemCode === OUTBOUND_REFUSED;
      if (refused) reason = "address_refused";
      const key = refused
        ? "connectionSettings.testUnreachable"
        : (error instanceof ConnectorError && CONNECTION_FAILURE_MESSAGES[error.reason]) ||
          "connectionSettings.testFailed";
      outcome = result(key, { system: d.name });
      // A settings problem the connector can name (e.g. Logo: the REST service is not licensed) is said
      // in its own Turkish words rather than the general "check the form".
      if (!refused && error instanceof ConnectorError && error.reason === "config" && error.merchantMessage)
        outcome = { ok: false, message: error.merchantMessage, testedAt: at.toISOString() };
    }
    this.ctx.logger.info(
      { companyId, kind: d.kind, system: d.system, ok: outcome.ok, reason },
      "connection tested",
    );
    return outcome;
  }

  /** Runs the connector's own connection test on the form's values (or the stored ones). */
  async test(
    companyId: number,
    connectionType: ConnectionType,
    productType: number,
    fields: Record<string, string> | undefined,
    agentId?: number | null,
  ): Promise<ConnectionTest> {
    const d = this.descriptor(connectionType, productType);
    if (!d.implemented) {
      return {
        ok: false,
        message: message("connectionSettings.testUnsupported", { system: d.name }),
        testedAt: this.ctx.clock.now().toISOString(),
      };
    }
    const { row, credentials, unchanged } = await this.merge(companyId, connectionType, d, fields);
    const via = await this.chosenAgent(companyId, agentId, row);
    const outcome = await this.probe(companyId, d, credentials, via);
    // Only the saved credentials' test is their status; a test of unsaved form values is not.
    if (row && unchanged && via === row.agentId) {
      const at = new Date(outcome.testedAt);
      await recordConnectionTest(this.db, row.id, { ok: outcome.ok, message: outcome.message, at });
      if (outcome.ok) await this.jobsForWorkingPair(companyId);
    }
    return outcome;
  }
}

function sameCredentials(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? "") !== (b[k] ?? "")) return false;
  return true;
}
