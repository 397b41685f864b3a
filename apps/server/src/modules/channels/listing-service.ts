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
  type ErpVariantOptionDto,
  type FieldError,
  type ListingProfileDto,
  type MarketplaceAttributeDto,
  type MarketplaceCategoryDto,
  message,
} from "@ep/contracts";
import { engineSchema, ensureChannelListingJob, erpVariantOptions } from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { interactiveConnectorContext } from "../connections/connector-factory.ts";
import { channelCredentialPersister, findChannel, openCredentials } from "../connections/repository.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { JobService } from "../jobs/service.ts";
import { readLive } from "../settings/service.ts";

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

  /** Whether the channel's brand is typed rather than picked from its list (the mapping form's field). */
  async profile(companyId: number, id: number): Promise<ListingProfileDto> {
    return { freeTextBrand: (await this.open(companyId, id)).freeTextBrand === true };
  }

  async brands(companyId: number, id: number, name?: string) {
    return (await this.open(companyId, id)).listBrands(name);
  }

  /**
   * The variant options of the ERP's products in one ERP category (e.g. Beden: S, M, L), read from the
   * ERP's product list: what a mapping's variant attributes can be fed from.
   */
  async erpVariantOptions(
    companyId: number,
    id: number,
    erpCategory: string,
  ): Promise<ErpVariantOptionDto[]> {
    if (!(await findChannel(this.db, companyId, id))) throw AppError.notFound();
    return readLive(this.ctx, companyId, "erp", "variant-options", async (erp) => {
      const cards = [];
      let pageToken: string | undefined;
      do {
        const page = await erp.listProducts({ pageToken, pageSize: erp.descriptor.batch.page });
        cards.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return erpVariantOptions(cards, erpCategory);
    });
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
   * own lists: a leaf category, a listed brand (the typed one where there is no list), every required
   * attribute with a listed value (free text only where the category allows it). The channel then gets
   * its listing job.
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
    // A marketplace without a brand list (Hepsiburada's and n11's Marka, Amazon's brand) takes it as typed.
    const brand = connector.freeTextBrand
      ? { id: input.brandId, name: input.brandId }
      : (await connector.listBrands()).find((b) => b.id === input.brandId);
    if (!brand) errors.push({ field: "brandId", message: message("listing.unknownBrand") });
    const listed = (await connector.listCategoryAttributes?.(input.categoryId)) ?? [];
    const variants = checkVariants(listed, input, errors);
    const fed = new Set(variants.map((v) => v.attributeId));
    const attributes = checkAttributes(
      listed.filter((a) => !fed.has(a.id)),
      input.attributes.filter((a) => !fed.has(a.attributeId)),
      errors,
    );
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
      variants,
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

/**
 * The mapping's variant attributes as the marketplace lists them: each a variant attribute of the
 * category, mapped once (not also to a fixed value), every ERP value onto a listed value (free text only
 * where the attribute allows it), no ERP value twice. What does not fit goes into `errors`.
 */
function checkVariants(listed: CategoryAttribute[], input: CategoryMappingInput, errors: FieldError[]) {
  const out: Array<{
    attributeId: string;
    name: string;
    erpOption: string;
    values: Array<{ erpValue: string; valueId?: string; value: string }>;
  }> = [];
  const fixed = new Set(input.attributes.map((a) => a.attributeId));
  const seen = new Set<string>();
  input.variants.forEach((v, i) => {
    const attr = listed.find((a) => a.id === v.attributeId);
    const field = `variants.${i}`;
    if (!attr) {
      errors.push({ field, message: message("listing.unknownAttribute", { name: v.attributeId }) });
      return;
    }
    if (!attr.variant) {
      errors.push({ field, message: message("listing.notVariantAttribute", { name: attr.name }) });
      return;
    }
    if (fixed.has(attr.id) || seen.has(attr.id)) {
      errors.push({ field, message: message("listing.attributeTwice", { name: attr.name }) });
      return;
    }
    seen.add(attr.id);
    const erpValues = new Set<string>();
    const values: (typeof out)[number]["values"] = [];
    v.values.forEach((x, j) => {
      const key = x.erpValue.toLocaleLowerCase("tr-TR");
      if (erpValues.has(key)) {
        errors.push({
          field: `${field}.values.${j}`,
          message: message("listing.duplicateVariantValue", { value: x.erpValue, name: attr.name }),
        });
        return;
      }
      erpValues.add(key);
      const listedValue = x.valueId !== undefined ? attr.values.find((l) => l.id === x.valueId) : undefined;
      if (listedValue)
        values.push({ erpValue: x.erpValue, valueId: listedValue.id, value: listedValue.name });
      else if (x.valueId === undefined && x.value !== undefined && attr.allowCustom)
        values.push({ erpValue: x.erpValue, value: x.value });
      else
        errors.push({
          field: `${field}.values.${j}`,
          message: message("listing.invalidValue", { name: attr.name }),
        });
    });
    out.push({ attributeId: attr.id, name: attr.name, erpOption: v.erpOption, values });
  });
  return out;
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
    variants: r.variants,
    updatedAt: r.updatedAt.toISOString(),
  };
}
