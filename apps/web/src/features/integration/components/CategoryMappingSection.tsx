import type { CategoryMappingInput, MarketplaceAttributeDto } from "@ep/contracts";
import { Alert, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import {
  useCategoryMappings,
  useMarketplaceAttributes,
  useMarketplaceBrands,
  useMarketplaceCategories,
  useRemoveCategoryMapping,
  useSaveCategoryMapping,
  useStartListing,
} from "../listing-api";

/**
 * Category mapping of a marketplace channel (issue 37): an ERP category onto one of the marketplace's own
 * leaf categories, a brand from its list and the category's attribute values from its lists; then the
 * channel's listing opens the ERP's products of mapped categories there. Shown for one selected channel.
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
                <Table.Td>{m.attributes.map((a) => `${a.name}: ${a.value ?? ""}`).join(", ")}</Table.Td>
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
  const brands = useMarketplaceBrands(channelId);
  const save = useSaveCategoryMapping(channelId);
  const [erpCategory, setErpCategory] = useState("");
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [brandId, setBrandId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const attributes = useMarketplaceAttributes(channelId, categoryId);
  const names = useMemo(() => new Map((categories.data ?? []).map((c) => [c.id, c.name])), [categories.data]);
  const leaves = (categories.data ?? [])
    .filter((c) => c.leaf)
    .map((c) => ({ value: c.id, label: c.parentId ? `${names.get(c.parentId) ?? ""} > ${c.name}` : c.name }));
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : [];
  const submit = () => {
    if (!categoryId || !brandId) return;
    const list = (attributes.data ?? []).flatMap((a): CategoryMappingInput["attributes"] => {
      const v = values[a.id];
      if (!v) return [];
      return a.values.length > 0 ? [{ attributeId: a.id, valueId: v }] : [{ attributeId: a.id, value: v }];
    });
    save.mutate(
      { erpCategory: erpCategory.trim(), categoryId, brandId, attributes: list },
      {
        onSuccess: () => {
          setErpCategory("");
          setValues({});
        },
      },
    );
  };
  return (
    <Stack gap="sm">
      <Group grow align="flex-start">
        <TextInput
          label={t("integration.listing.erpCategory")}
          placeholder={t("integration.listing.erpCategoryPlaceholder")}
          value={erpCategory}
          onChange={(e) => setErpCategory(e.currentTarget.value)}
          required
        />
        <Select
          label={t("integration.listing.category")}
          data={leaves}
          value={categoryId}
          onChange={(v) => {
            setCategoryId(v);
            setValues({});
          }}
          searchable
          required
        />
        <Select
          label={t("integration.listing.brand")}
          data={(brands.data ?? []).map((b) => ({ value: b.id, label: b.name }))}
          value={brandId}
          onChange={setBrandId}
          searchable
          required
        />
      </Group>
      {(attributes.data ?? []).length > 0 && (
        <Group grow align="flex-start">
          {(attributes.data ?? []).map((a) => (
            <AttributeInput
              key={a.id}
              attribute={a}
              value={values[a.id] ?? ""}
              onChange={(v) => setValues((prev) => ({ ...prev, [a.id]: v }))}
            />
          ))}
        </Group>
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
