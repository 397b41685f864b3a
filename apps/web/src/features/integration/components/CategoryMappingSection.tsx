import type { MarketplaceAttributeDto } from "@ep/contracts";
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState } from "@/components/feedback/ErrorState";
import { useLiveList } from "@/features/connections/api";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import {
  useCategoryMappings,
  useErpVariantOptions,
  useListingProfile,
  useMarketplaceAttributes,
  useMarketplaceBrands,
  useMarketplaceCategories,
  useRemoveCategoryMapping,
  useSaveCategoryMapping,
  useStartListing,
} from "../listing-api";
import { mappingAttributes, suggestVariantValues, type VariantDraft } from "../listing-form";

/**
 * Category mapping of a marketplace channel (issue 37): an ERP category onto one of the marketplace's own
 * leaf categories, a brand from its list and the category's attribute values from its lists, its variant
 * attributes fed from the ERP's variant options; then the channel's listing opens the ERP's products of
 * mapped categories there. Shown for one selected channel.
 */
export function CategoryMappingSection({ channelId }: { channelId: number }) {
  const { t } = useTranslation();
  const mappings = useCategoryMappings(channelId);
  const remove = useRemoveCategoryMapping(channelId);
  const start = useStartListing(channelId);
  const [started, setStarted] = useState<string | null>(null);
  return (
    <Card data-testid="category-mapping">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="lg" fw={600}>
          {t("integration.listing.title")}
        </Title>
        <Button
          variant="light"
          loading={start.isPending}
          disabled={!mappings.data?.length}
          onClick={() =>
            start.mutate(undefined, { onSuccess: () => setStarted(t("integration.listing.started")) })
          }
        >
          {t("integration.listing.start")}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t("integration.listing.help")}
      </Text>
      {started && (
        <Alert color="green" mb="md" withCloseButton onClose={() => setStarted(null)}>
          {started}
        </Alert>
      )}
      {start.error && (
        <Alert color="red" mb="md">
          {errorMessage(start.error)}
        </Alert>
      )}
      {mappings.data && mappings.data.length > 0 && (
        <Table mb="md" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("integration.listing.erpCategory")}</Table.Th>
              <Table.Th>{t("integration.listing.category")}</Table.Th>
              <Table.Th>{t("integration.listing.brand")}</Table.Th>
              <Table.Th>{t("integration.listing.attributes")}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {mappings.data.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>{m.erpCategory}</Table.Td>
                <Table.Td>{m.categoryName}</Table.Td>
                <Table.Td>{m.brandName}</Table.Td>
                <Table.Td>
                  {[
                    ...m.attributes.map((a) => `${a.name}: ${a.value ?? ""}`),
                    ...m.variants.map((v) =>
                      t("integration.listing.variantCell", {
                        name: v.name,
                        option: v.erpOption,
                        values: v.values.map((x) => `${x.erpValue} → ${x.value}`).join(", "),
                      }),
                    ),
                  ].join("; ")}
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(m.id)}>
                    {t("integration.listing.remove")}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <MappingForm channelId={channelId} />
    </Card>
  );
}

function MappingForm({ channelId }: { channelId: number }) {
  const { t } = useTranslation();
  const categories = useMarketplaceCategories(channelId);
  const profile = useListingProfile(channelId);
  const typedBrand = profile.data?.freeTextBrand === true;
  const brands = useMarketplaceBrands(channelId, profile.data !== undefined && !typedBrand);
  const save = useSaveCategoryMapping(channelId);
  const [erpCategory, setErpCategory] = useState("");
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [brandId, setBrandId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [variants, setVariants] = useState<Record<string, VariantDraft>>({});
  const attributes = useMarketplaceAttributes(channelId, categoryId);
  const [typedCategory] = useDebouncedValue(erpCategory.trim(), 500);
  const erpOptions = useErpVariantOptions(channelId, typedCategory);
  const names = useMemo(() => new Map((categories.data ?? []).map((c) => [c.id, c.name])), [categories.data]);
  const leaves = (categories.data ?? [])
    .filter((c) => c.leaf)
    .map((c) => ({ value: c.id, label: c.parentId ? `${names.get(c.parentId) ?? ""} > ${c.name}` : c.name }));
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : [];
  const listed = attributes.data ?? [];
  const fedByErp = (a: MarketplaceAttributeDto) => a.variant && !!variants[a.id]?.erpOption;
  const submit = () => {
    if (!categoryId || !brandId) return;
    save.mutate(
      {
        erpCategory: erpCategory.trim(),
        categoryId,
        brandId: brandId.trim(),
        ...mappingAttributes(listed, values, variants),
      },
      {
        onSuccess: () => {
          setErpCategory("");
          setValues({});
          setVariants({});
        },
      },
    );
  };
  return (
    <Stack gap="sm">
      <Group grow align="flex-start">
        <ErpCategoryPicker
          value={erpCategory}
          onChange={(v) => {
            setErpCategory(v);
            setVariants({});
          }}
        />
        <Select
          label={t("integration.listing.category")}
          data={leaves}
          value={categoryId}
          onChange={(v) => {
            setCategoryId(v);
            setValues({});
            setVariants({});
          }}
          searchable
          required
        />
        {typedBrand ? (
          <TextInput
            label={t("integration.listing.brand")}
            description={t("integration.listing.brandTyped")}
            value={brandId ?? ""}
            onChange={(e) => setBrandId(e.currentTarget.value.trim() ? e.currentTarget.value : null)}
            maxLength={200}
            required
          />
        ) : (
          <Select
            label={t("integration.listing.brand")}
            data={(brands.data ?? []).map((b) => ({ value: b.id, label: b.name }))}
            value={brandId}
            onChange={setBrandId}
            disabled={profile.isPending}
            searchable
            required
          />
        )}
      </Group>
      {listed.some((a) => !fedByErp(a)) && (
        <Group grow align="flex-start">
          {listed
            .filter((a) => !fedByErp(a))
            .map((a) => (
              <AttributeInput
                key={a.id}
                attribute={a}
                value={values[a.id] ?? ""}
                onChange={(v) => setValues((prev) => ({ ...prev, [a.id]: v }))}
              />
            ))}
        </Group>
      )}
      {listed.some((a) => a.variant) && typedCategory !== "" && (
        <VariantMapping
          attributes={listed.filter((a) => a.variant)}
          options={erpOptions}
          drafts={variants}
          onChange={(id, draft) => setVariants((prev) => ({ ...prev, [id]: draft }))}
        />
      )}
      {save.error && (
        <Alert color="red">
          {[errorMessage(save.error), ...fieldErrors.map((f) => f.message)].join(" ")}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          onClick={submit}
          loading={save.isPending}
          disabled={!erpCategory.trim() || !categoryId || !brandId}
        >
          {t("integration.listing.save")}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The ERP category, picked from the ERP's own category list (its paths, as products carry them). Only an
 * ERP that keeps no category list leaves the path to be typed.
 */
function ErpCategoryPicker(props: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  const list = useLiveList("custom-data/category-list");
  const label = t("integration.listing.erpCategory");
  if (list.isError)
    return (
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <ErrorState
          message={`${t("integration.listing.erpCategoriesFailed")} ${errorMessage(list.error)}`}
          onRetry={() => list.refetch()}
          retrying={list.isFetching}
          minHeight={0}
        />
      </Stack>
    );
  if (list.data && list.data.length === 0)
    return (
      <TextInput
        label={label}
        description={t("integration.listing.erpCategoriesNone")}
        placeholder={t("integration.listing.erpCategoryPlaceholder")}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        required
      />
    );
  return (
    <Select
      label={label}
      data={(list.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? "")}
      placeholder={
        list.isPending
          ? t("integration.listing.erpCategoriesLoading")
          : t("integration.listing.erpCategorySearch")
      }
      nothingFoundMessage={t("integration.listing.erpCategoriesNothingFound")}
      disabled={list.isPending}
      rightSection={list.isPending ? <Loader size="xs" /> : undefined}
      searchable
      required
    />
  );
}

/**
 * The marketplace's variant attributes (Trendyol varianter/slicer) fed from an ERP variant option: the
 * option, then each of its ERP values onto the attribute's value (suggested where the names match).
 */
function VariantMapping(props: {
  attributes: MarketplaceAttributeDto[];
  options: ReturnType<typeof useErpVariantOptions>;
  drafts: Record<string, VariantDraft>;
  onChange: (attributeId: string, draft: VariantDraft) => void;
}) {
  const { t } = useTranslation();
  const { options } = props;
  return (
    <Stack gap="xs" data-testid="variant-mapping">
      <Text fw={600} size="sm">
        {t("integration.listing.variantsTitle")}
      </Text>
      <Text size="sm" c="dimmed">
        {t("integration.listing.variantsHelp")}
      </Text>
      {options.isPending && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{t("integration.listing.variantOptionsLoading")}</Text>
        </Group>
      )}
      {options.isError && (
        <ErrorState
          message={`${t("integration.listing.variantOptionsFailed")} ${errorMessage(options.error)}`}
          onRetry={() => options.refetch()}
          retrying={options.isFetching}
          minHeight={0}
        />
      )}
      {options.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          {t("integration.listing.variantOptionsNone")}
        </Text>
      )}
      {options.data &&
        options.data.length > 0 &&
        props.attributes.map((a) => {
          const draft = props.drafts[a.id];
          const erpValues = options.data.find((o) => o.name === draft?.erpOption)?.values ?? [];
          return (
            <Stack key={a.id} gap={4}>
              <Select
                label={t("integration.listing.variantSource", { name: a.name })}
                placeholder={t("integration.listing.variantSourceNone")}
                data={options.data.map((o) => o.name)}
                value={draft?.erpOption ?? null}
                onChange={(name) => {
                  const values = options.data.find((o) => o.name === name)?.values ?? [];
                  props.onChange(a.id, { erpOption: name ?? "", values: suggestVariantValues(a, values) });
                }}
                clearable
              />
              {draft?.erpOption && (
                <Group grow align="flex-start">
                  {erpValues.map((erp) => (
                    <AttributeInput
                      key={erp}
                      attribute={{ ...a, name: `${a.name}: ${erp}`, required: false }}
                      value={draft.values[erp] ?? ""}
                      onChange={(v) =>
                        props.onChange(a.id, { ...draft, values: { ...draft.values, [erp]: v } })
                      }
                    />
                  ))}
                </Group>
              )}
            </Stack>
          );
        })}
    </Stack>
  );
}

/** A listed attribute is chosen from the marketplace's values; a free one is typed. */
function AttributeInput(props: {
  attribute: MarketplaceAttributeDto;
  value: string;
  onChange: (v: string) => void;
}) {
  const { attribute: a } = props;
  if (a.values.length === 0)
    return (
      <TextInput
        label={a.name}
        required={a.required}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    );
  return (
    <Select
      label={a.name}
      required={a.required}
      data={a.values.map((v) => ({ value: v.id, label: v.name }))}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? "")}
      searchable
      clearable={!a.required}
    />
  );
}
