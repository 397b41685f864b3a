import {
  type CategoryAttribute,
  createSalesChannelConnector,
  hasListing,
  type MarketplaceListing,
  type ShopConnector,
} from "@ep/connectors";
import {
  type CategoryMappingDto,
  type CategoryMappingInput,
  type FieldError,
  type MarketplaceAttributeDto,
  type MarketplaceCategoryDto,
  message,
} from "@ep/contracts";
import { engineSchema, ensureChannelListingJob } from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { interactiveConnectorContext } from "../connections/connector-factory.ts";
import { channelCredentialPersister, findChannel, openCredentials } from "../connections/repository.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { JobService } from "../jobs/service.ts";

const { channelCategoryMappings: mappings, jobs } = engineSchema;
type MappingRow = typeof mappings.$inferSelect;

/**
 * Product listing on a company's marketplace channel (issue 37): the marketplace's own category,
 * attribute and brand lists (read live through its connector), the mapping of ERP categories onto them
 * (checked against those lists before it is stored), and starting the channel's listing job.
 * Every call is scoped to the caller's company: another company's channel is not found.
 */
export class ChannelListingService {
  constructor(private readonly ctx: AppContext & WithEngine) {}

  private get db() {
    return this.ctx.database.db;
  }

  private async open(companyId: number, id: number): Promise<ShopConnector & MarketplaceListing> {
    const row = await findChannel(this.db, companyId, id);
    if (!row) throw AppError.notFound();
    const credentials = openCredentials(this.ctx.credentials, row);
    const connector = createSalesChannelConnector(row.systemKey ?? "", credentials, {
      ...interactiveConnectorContext(this.ctx, companyId, "shop", credentials, row.agentId),
      persistCredentials: channelCredentialPersister(this.db, this.ctx.credentials, row.id, credentials),
    });
    if (!hasListing(connector)) throw new AppError(400, "listing.notSupportedChannel");
    return connector;
  }

  /** The marketplace's category list; products open in leaf categories only. */
  async categories(companyId: number, id: number): Promise<MarketplaceCategoryDto[]> {
    const list = await (await this.open(companyId, id)).listCategories();
    const parents = new Set(list.map((c) => c.parentId).filter((p) => p !== undefined));
    return list.map((c) => ({
      id: c.id,
      name: c.name,
      parentId: c.parentId ?? null,
      leaf: !parents.has(c.id),
    }));
  }

  async attributes(companyId: number, id: number, categoryId: string): Promise<MarketplaceAttributeDto[]> {
    const connector = await this.open(companyId, id);
    return (await connector.listCategoryAttributes?.(categoryId)) ?? [];
  }

  async brands(companyId: number, id: number, name?: string) {
    return (await this.open(companyId, id)).listBrands(name);
  }

  async list(companyId: number, id: number): Promise<CategoryMappingDto[]> {
    if (!(await findChannel(this.db, companyId, id))) throw AppError.notFound();
    const rows = await this.db
      .select()
      .from(mappings)
      .where(and(eq(mappings.companyId, companyId), eq(mappings.connectionId, id)))
      .orderBy(asc(mappings.erpCategory));
    return rows.map(dtoOf);
  }

  /**
   * Saves (or replaces) the mapping of one ERP category, after checking it against the marketplace's
   * own lists: a leaf category, a listed brand (or any name where the brand is free text), every
   * required attribute with a listed value (free text only where the category allows it). The channel then gets its listing job.
   */
  async save(companyId: number, id: number, input: CategoryMappingInput): Promise<CategoryMappingDto> {
    const connector = await this.open(companyId, id);
    const categories = await connector.listCategories();
    const category = categories.find((c) => c.id === input.categoryId);
    const errors: FieldError[] = [];
    if (!category || categories.some((c) => c.parentId === input.categoryId)) {
      errors.push({ field: "categoryId", message: message("listing.unknownCategory") });
      throw AppError.validation(errors);
    }
    // A marketplace without a brand list (the brand is written on the listing) answers the name back.
    const brand = connector.freeTextBrand
      ? (await connector.listBrands(input.brandId))[0]
      : (await connector.listBrands()).find((b) => b.id === input.brandId);
    if (!brand) errors.push({ field: "brandId", message: message("listing.unknownBrand") });
    const listed = (await connector.listCategoryAttributes?.(input.categoryId)) ?? [];
    const attributes = checkAttributes(listed, input.attributes, errors);
    if (errors.length > 0) throw AppError.validation(errors);
    const now = this.ctx.clock.now();
    const values = {
      companyId,
      connectionId: id,
      erpCategory: input.erpCategory,
      categoryId: category.id,
      categoryName: category.name,
      brandId: brand!.id,
      brandName: brand!.name,
      attributes,
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(mappings)
      .values(values)
      .onConflictDoUpdate({ target: [mappings.connectionId, mappings.erpCategory], set: values })
      .returning();
    await ensureChannelListingJob(this.db, companyId, id, now);
    return dtoOf(row!);
  }

  async remove(companyId: number, id: number, mappingId: number): Promise<void> {
    const gone = await this.db
      .delete(mappings)
      .where(
        and(eq(mappings.companyId, companyId), eq(mappings.connectionId, id), eq(mappings.id, mappingId)),
      )
      .returning({ id: mappings.id });
    if (gone.length === 0) throw AppError.notFound();
  }

  /** Runs the channel's listing job now (the job exists once a category is mapped). */
  async start(
    companyId: number,
    id: number,
    userId: number | null,
  ): Promise<{ runId: number; jobId: number }> {
    if (!(await findChannel(this.db, companyId, id))) throw AppError.notFound();
    const [job] = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(eq(jobs.companyId, companyId), eq(jobs.connectionId, id), eq(jobs.type, "ProductIntegration")),
      );
    if (!job) throw new AppError(400, "listing.noMappings");
    const { runId } = await new JobService(this.ctx).run(companyId, job.id, userId);
    return { runId, jobId: job.id };
  }
}

/** The mapping's attributes as the marketplace lists them; what does not fit goes into `errors`. */
function checkAttributes(
  listed: CategoryAttribute[],
  given: CategoryMappingInput["attributes"],
  errors: FieldError[],
) {
  const out: Array<{ attributeId: string; name: string; valueId?: string; value?: string }> = [];
  const byId = new Map(given.map((a, i) => [a.attributeId, { a, i }]));
  for (const attr of listed) {
    const hit = byId.get(attr.id);
    byId.delete(attr.id);
    if (!hit) {
      if (attr.required)
        errors.push({
          field: "attributes",
          message: message("listing.missingAttribute", { name: attr.name }),
        });
      continue;
    }
    const { a, i } = hit;
    const value = a.valueId !== undefined ? attr.values.find((v) => v.id === a.valueId) : undefined;
    if (value) out.push({ attributeId: attr.id, name: attr.name, valueId: value.id, value: value.name });
    else if (a.valueId === undefined && a.value !== undefined && attr.allowCustom)
      out.push({ attributeId: attr.id, name: attr.name, value: a.value });
    else
      errors.push({
        field: `attributes.${i}`,
        message: message("listing.invalidValue", { name: attr.name }),
      });
  }
  for (const { a, i } of byId.values())
    errors.push({
      field: `attributes.${i}`,
      message: message("listing.unknownAttribute", { name: a.attributeId }),
    });
  return out;
}

function dtoOf(r: MappingRow): CategoryMappingDto {
  return {
    id: r.id,
    erpCategory: r.erpCategory,
    categoryId: r.categoryId,
    categoryName: r.categoryName,
    brandId: r.brandId,
    brandName: r.brandName,
    attributes: r.attributes,
    updatedAt: r.updatedAt.toISOString(),
  };
}
