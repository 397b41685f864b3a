import {
  type ConnectorDescriptor,
  ConnectorError,
  createSalesChannelConnector,
  getSalesChannelDescriptor,
  listSalesChannels,
} from "@ep/connectors";
import {
  type ChannelDto,
  type ChannelSettingsDto,
  type ChannelSystemInfo,
  type ConnectionTest,
  type FieldError,
  message,
} from "@ep/contracts";
import { type ChannelSettings, engineSchema, ensureChannelJobs } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { interactiveConnectorContext } from "../connections/connector-factory.ts";
import { credentialFieldsOf } from "../connections/credential-fields.ts";
import {
  type ConnectionRow,
  channelCredentialPersister,
  findChannel,
  findConnection,
  listChannels,
  openCredentials,
  recordConnectionTest,
  removeChannel,
  saveChannel,
  saveChannelSettings,
} from "../connections/repository.ts";
import { CONNECTION_FAILURE_MESSAGES } from "../dashboard/connection-status.ts";
import type { WithSandbox } from "../sandbox/hub.ts";

/**
 * A company's marketplace sales channels (issue 37): connected beside its shop, one per marketplace,
 * each tested like a connection and given its own stock, price and order jobs once it works and the
 * ERP is connected. The shop's connection and screens are untouched.
 */
export class ChannelService {
  constructor(private readonly ctx: AppContext & WithSandbox) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** The marketplaces a company can connect, with their forms. */
  systems(): ChannelSystemInfo[] {
    const sandboxes = new Set(this.ctx.sandbox.channelSystems.map((s) => s.system));
    return listSalesChannels().map((d) => ({
      system: d.system,
      name: d.name,
      sandbox: sandboxes.has(d.system),
      fields: credentialFieldsOf(d),
    }));
  }

  async list(companyId: number): Promise<ChannelDto[]> {
    const rows = await listChannels(this.db, companyId);
    const withJobs = await this.channelsWithJobs(companyId);
    return rows.map((r) => this.dtoOf(r, withJobs.has(r.id)));
  }

  /**
   * Connects a marketplace (or replaces its login), tests it at once, and gives it its jobs when the
   * test passes and the company's ERP is connected.
   */
  async add(
    companyId: number,
    userId: number | null,
    system: string,
    fields: Record<string, string>,
    settings?: ChannelSettingsDto,
  ): Promise<ChannelDto> {
    const { d, credentials } = await this.loginOf(companyId, system, fields);
    const saved = await saveChannel(this.db, this.ctx.credentials, {
      companyId,
      system,
      credentials,
      isEmulated: this.ctx.sandbox.ownsChannel(companyId, system, credentials),
      settings,
    });
    const row = await this.testRow(companyId, saved, credentials);
    if (userId !== null)
      await recordActivity(this.db, { companyId, userId, action: "connectionChanged", detail: d.name });
    this.ctx.logger.info({ companyId, system, ok: row.lastTestOk }, "sales channel saved");
    const jobsReady = (await this.channelsWithJobs(companyId)).has(row.id);
    return this.dtoOf(row, jobsReady);
  }

  /**
   * Tests a login before it is saved (the add form's "Bağlantıyı Test Et"): nothing is stored, and an
   * empty secret is the one stored for that marketplace, as when saving.
   */
  async testLogin(
    companyId: number,
    system: string,
    fields: Record<string, string>,
  ): Promise<ConnectionTest> {
    const { credentials, existing } = await this.loginOf(companyId, system, fields);
    // A token the test rotates is not kept: the login it belongs to is not saved yet.
    return this.probe(companyId, system, credentials, existing?.agentId ?? null, async () => undefined);
  }

  /** Tests a stored channel again (its status is that test); another company's id is not found. */
  async test(companyId: number, id: number): Promise<ChannelDto> {
    const row = await findChannel(this.db, companyId, id);
    if (!row) throw AppError.notFound();
    const tested = await this.testRow(companyId, row, openCredentials(this.ctx.credentials, row));
    return this.dtoOf(tested, (await this.channelsWithJobs(companyId)).has(row.id));
  }

  async updateSettings(companyId: number, id: number, settings: ChannelSettingsDto): Promise<ChannelDto> {
    const row = await saveChannelSettings(this.db, companyId, id, settings as ChannelSettings);
    if (!row) throw AppError.notFound();
    return this.dtoOf(row, (await this.channelsWithJobs(companyId)).has(row.id));
  }

  /** Removes a channel with its jobs, history and ledgers; another company's id is not found. */
  async remove(companyId: number, userId: number, id: number): Promise<string> {
    const row = await findChannel(this.db, companyId, id);
    if (!row || !(await removeChannel(this.db, companyId, id))) throw AppError.notFound();
    const name = getSalesChannelDescriptor(row.systemKey ?? "")?.name ?? row.systemKey ?? "";
    await recordActivity(this.db, { companyId, userId, action: "connectionChanged", detail: name });
    return name;
  }

  /** Gives every working channel its jobs once the ERP is connected (also called when the ERP is saved). */
  async ensureJobs(companyId: number): Promise<void> {
    const erp = await findConnection(this.db, companyId, "erp");
    if (!erp) return;
    for (const row of await listChannels(this.db, companyId)) {
      if (row.lastTestOk) await ensureChannelJobs(this.db, companyId, row.id, this.ctx.clock.now());
    }
  }

  private async testRow(
    companyId: number,
    row: ConnectionRow,
    credentials: Record<string, string>,
  ): Promise<ConnectionRow> {
    const system = row.systemKey ?? "";
    const outcome = await this.probe(
      companyId,
      system,
      credentials,
      row.agentId,
      // Rotated tokens go to this channel's row, never to the shop's.
      channelCredentialPersister(this.db, this.ctx.credentials, row.id, credentials),
    );
    const at = new Date(outcome.testedAt);
    await recordConnectionTest(this.db, row.id, { ok: outcome.ok, message: outcome.message, at });
    if (outcome.ok) await this.ensureJobs(companyId);
    return { ...row, lastTestAt: at, lastTestOk: outcome.ok, lastTestMessage: outcome.message };
  }

  /** The marketplace connector's own test, in Turkish; no credential reaches the log. */
  private async probe(
    companyId: number,
    system: string,
    credentials: Record<string, string>,
    agentId: number | null,
    persistCredentials: (changed: Record<string, string | undefined>) => Promise<void>,
  ): Promise<ConnectionTest> {
    const testedAt = this.ctx.clock.now().toISOString();
    const name = getSalesChannelDescriptor(system)?.name ?? system;
    try {
      const connector = createSalesChannelConnector(system, credentials, {
        ...interactiveConnectorContext(this.ctx, companyId, "shop", credentials, agentId),
        persistCredentials,
      });
      const info = await connector.testConnection();
      return {
        ok: true,
        message: message("connectionSettings.testOk", { description: info.description }),
        testedAt,
      };
    } catch (error) {
      const key =
        (error instanceof ConnectorError && CONNECTION_FAILURE_MESSAGES[error.reason]) ||
        "connectionSettings.testFailed";
      return { ok: false, message: message(key, { system: name }), testedAt };
    }
  }

  /** The marketplace's descriptor, the company's channel of it if any, and the form's login over it. */
  private async loginOf(companyId: number, system: string, fields: Record<string, string>) {
    const d = getSalesChannelDescriptor(system);
    if (!d) throw new AppError(400, "channels.unknownSystem");
    const existing = (await listChannels(this.db, companyId)).find((r) => r.systemKey === system);
    const stored = existing && openCredentials(this.ctx.credentials, existing);
    return { d, existing, credentials: this.credentialsOf(d, fields, stored) };
  }

  /** The form's values over the stored login (an empty secret keeps the stored one), checked. */
  private credentialsOf(
    d: ConnectorDescriptor,
    fields: Record<string, string>,
    stored: Record<string, string> | undefined,
  ): Record<string, string> {
    const errors: FieldError[] = [];
    const declared = new Set(d.credentials.map((f) => f.name));
    for (const name of Object.keys(fields)) {
      if (!declared.has(name))
        errors.push({ field: `fields.${name}`, message: message("connectionSettings.unknownField") });
    }
    const credentials: Record<string, string> = {};
    for (const f of d.credentials) {
      const sent = fields[f.name]?.trim();
      const value =
        sent === undefined || (f.secret && sent === "") ? (stored?.[f.name] ?? f.default ?? "") : sent;
      if (value === "") {
        if (f.required)
          errors.push({ field: `fields.${f.name}`, message: message("connectionSettings.fieldRequired") });
        continue;
      }
      credentials[f.name] = value;
    }
    if (errors.length > 0) throw AppError.validation(errors);
    return credentials;
  }

  private async channelsWithJobs(companyId: number): Promise<Set<number>> {
    const { jobs } = engineSchema;
    const rows = await this.db
      .selectDistinct({ id: jobs.connectionId })
      .from(jobs)
      .where(and(eq(jobs.companyId, companyId)));
    return new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id])));
  }

  private dtoOf(row: ConnectionRow, jobsReady: boolean): ChannelDto {
    const system = row.systemKey ?? "";
    return {
      id: row.id,
      system,
      name: getSalesChannelDescriptor(system)?.name ?? system,
      isEmulated: row.isEmulated,
      lastTest:
        row.lastTestAt && row.lastTestOk !== null
          ? { ok: row.lastTestOk, message: row.lastTestMessage ?? "", testedAt: row.lastTestAt.toISOString() }
          : null,
      settings: row.settings as ChannelSettingsDto,
      jobsReady,
    };
  }
}
