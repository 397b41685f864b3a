import type { OptionDto } from "@ep/contracts";
import {
  Anchor,
  MultiSelect,
  NumberInput,
  Radio,
  Select,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DataTable } from "@/components/table/DataTable";
import { errorMessage } from "@/lib/errors";
import { useLiveList } from "../api";
import type { DraftApi } from "./SettingsForm";

/** A list from the connected system for a Select: its options, and the reason when it could not be read. */
function useOptions(path: string) {
  const list = useLiveList(path);
  const data = (list.data ?? []).map((o: OptionDto) => ({ value: o.id, label: o.name }));
  return { data, error: list.isError ? errorMessage(list.error) : undefined, loading: list.isPending };
}

/** Keeps a stored value selectable even when the live list no longer offers it. */
const withValue = (data: { value: string; label: string }[], values: Array<string | null | undefined>) => {
  const extra = values.filter((v): v is string => !!v && !data.some((d) => d.value === v));
  return [...data, ...extra.map((v) => ({ value: v, label: v }))];
};

function PercentInput(props: {
  label: string;
  description: string;
  value: number;
  onChange: (v: number) => void;
  error?: string;
}) {
  return (
    <NumberInput
      label={props.label}
      description={props.description}
      min={0}
      max={100}
      suffix=" %"
      value={props.value}
      onChange={(v) => props.onChange(typeof v === "number" ? v : Number(v) || 0)}
      error={props.error}
    />
  );
}

export function ProductOptions({ draft, set, withCreate }: DraftApi & { withCreate: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      {withCreate && (
        <Switch
          label={t("connections.integration.createMissingProducts")}
          description={t("connections.integration.createMissingProductsHelp")}
          checked={draft.createMissingProducts ?? true}
          onChange={(e) => set("createMissingProducts", e.currentTarget.checked)}
        />
      )}
      <TagsInput
        label={t("connections.integration.categoryFilter")}
        description={t("connections.integration.categoryFilterHelp")}
        value={draft.categoryFilter ?? []}
        onChange={(v) => set("categoryFilter", v)}
        clearable
      />
    </Stack>
  );
}

export function PriceOptions({ draft, set, errors }: DraftApi) {
  const { t } = useTranslation();
  const erp = useOptions("erp-price-group-list");
  const shop = useOptions("ecommerce-price-group-list");
  return (
    <Stack gap="md">
      <Select
        label={t("connections.integration.erpPriceGroup")}
        description={t("connections.integration.erpPriceGroupHelp")}
        placeholder={t("connections.integration.defaultChoice")}
        data={withValue(erp.data, [draft.erpPriceGroup])}
        value={draft.erpPriceGroup ?? null}
        onChange={(v) => set("erpPriceGroup", v)}
        error={errors.erpPriceGroup ?? erp.error}
        clearable
      />
      <Select
        label={t("connections.integration.shopPriceList")}
        placeholder={t("connections.integration.defaultChoice")}
        data={withValue(shop.data, [draft.shopPriceList])}
        value={draft.shopPriceList ?? null}
        onChange={(v) => set("shopPriceList", v)}
        error={errors.shopPriceList ?? shop.error}
        clearable
      />
      <Switch
        label={t("connections.integration.shopPricesIncludeVat")}
        checked={draft.shopPricesIncludeVat ?? true}
        onChange={(e) => set("shopPricesIncludeVat", e.currentTarget.checked)}
      />
      <PercentInput
        label={t("connections.integration.priceGuard")}
        description={t("connections.integration.priceGuardHelp")}
        value={draft.priceGuardMaxDropPercent ?? 30}
        onChange={(v) => set("priceGuardMaxDropPercent", v)}
        error={errors.priceGuardMaxDropPercent}
      />
    </Stack>
  );
}

export function StockOptions({ draft, set, errors }: DraftApi) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <NumberInput
        label={t("connections.integration.minStock")}
        description={t("connections.integration.minStockHelp")}
        min={0}
        allowDecimal={false}
        value={draft.minStock ?? 0}
        onChange={(v) => set("minStock", typeof v === "number" ? v : Number(v) || 0)}
        error={errors.minStock}
      />
      <PercentInput
        label={t("connections.integration.stockGuard")}
        description={t("connections.integration.stockGuardHelp")}
        value={draft.stockGuardMaxZeroPercent ?? 20}
        onChange={(v) => set("stockGuardMaxZeroPercent", v)}
        error={errors.stockGuardMaxZeroPercent}
      />
      <Text size="sm">
        {t("connections.integration.stockLocationsHint")}{" "}
        <Anchor component={Link} to="/settings/stock-locations">
          {t("connections.stockLocations.title")}
        </Anchor>
      </Text>
    </Stack>
  );
}

function CodeMapping({
  title,
  list,
  value,
  onChange,
  error,
}: {
  title: string;
  list: ReturnType<typeof useOptions>;
  value: Record<string, string>;
  onChange: (v: Record<string, string>) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text fw={500} size="sm">
        {title}
      </Text>
      {list.error && (
        <Text size="sm" c="red">
          {list.error}
        </Text>
      )}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      <DataTable
        withTableBorder
        verticalSpacing={4}
        columns={[t("connections.integration.shopValue"), t("connections.integration.erpCode")]}
      >
        {list.data.map((o) => (
          <Table.Tr key={o.value}>
            <Table.Td>{o.label}</Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`${title}: ${o.label}`}
                size="xs"
                value={value[o.value] ?? ""}
                onChange={(e) => {
                  const code = e.currentTarget.value;
                  const next = { ...value };
                  if (code.trim()) next[o.value] = code;
                  else delete next[o.value];
                  onChange(next);
                }}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Stack>
  );
}

export function OrderOptions({ draft, set, errors }: DraftApi) {
  const { t } = useTranslation();
  const statuses = useOptions("ecommerce-order-status-list");
  const payments = useOptions("ecommerce-payment-type-list");
  const channels = useOptions("sales-channel-list");
  const depots = useOptions("custom-data/depo-list");
  const rule = draft.customerRule ?? { kind: "perCustomer" as const };
  return (
    <Stack gap="md">
      <MultiSelect
        label={t("connections.integration.orderStatusesToTransfer")}
        description={t("connections.integration.orderStatusesToTransferHelp")}
        data={withValue(statuses.data, draft.orderStatusesToTransfer ?? [])}
        value={draft.orderStatusesToTransfer ?? []}
        onChange={(v) => set("orderStatusesToTransfer", v)}
        error={errors.orderStatusesToTransfer ?? statuses.error}
        clearable
      />
      <Select
        label={t("connections.integration.statusAfterTransfer")}
        placeholder={t("connections.integration.leaveStatus")}
        data={withValue(statuses.data, [draft.statusAfterTransfer])}
        value={draft.statusAfterTransfer ?? null}
        onChange={(v) => set("statusAfterTransfer", v)}
        error={errors.statusAfterTransfer}
        clearable
      />
      <CodeMapping
        title={t("connections.integration.paymentTypes")}
        list={payments}
        value={draft.paymentTypes ?? {}}
        onChange={(v) => set("paymentTypes", v)}
        error={errors.paymentTypes}
      />
      <CodeMapping
        title={t("connections.integration.salesChannels")}
        list={channels}
        value={draft.salesChannels ?? {}}
        onChange={(v) => set("salesChannels", v)}
        error={errors.salesChannels}
      />
      <Radio.Group
        label={t("connections.integration.customerRule")}
        value={rule.kind}
        onChange={(kind) =>
          set(
            "customerRule",
            kind === "singleAccount" ? { kind, accountCode: "" } : { kind: "perCustomer" as const },
          )
        }
        error={errors.customerRule}
      >
        <Stack gap={6} mt={6}>
          <Radio value="perCustomer" label={t("connections.integration.perCustomer")} />
          <Radio value="singleAccount" label={t("connections.integration.singleAccount")} />
        </Stack>
      </Radio.Group>
      {rule.kind === "singleAccount" && (
        <TextInput
          label={t("connections.integration.accountCode")}
          value={rule.accountCode}
          onChange={(e) => set("customerRule", { kind: "singleAccount", accountCode: e.currentTarget.value })}
          withAsterisk
        />
      )}
      <Select
        label={t("connections.integration.orderWarehouse")}
        placeholder={t("connections.integration.defaultChoice")}
        data={withValue(depots.data, [draft.orderWarehouse])}
        value={draft.orderWarehouse ?? null}
        onChange={(v) => set("orderWarehouse", v)}
        error={errors.orderWarehouse ?? depots.error}
        clearable
      />
      <TextInput
        label={t("connections.integration.orderSeries")}
        value={draft.orderSeries ?? ""}
        onChange={(e) => set("orderSeries", e.currentTarget.value)}
        error={errors.orderSeries}
        maxLength={20}
      />
    </Stack>
  );
}
