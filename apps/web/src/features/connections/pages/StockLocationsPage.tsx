import type { SettingValues } from "@ep/contracts";
import { Alert, MultiSelect, Stack, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { DataTable } from "@/components/table/DataTable";
import { SectionCard } from "@/features/account/components/SectionCard";
import { errorMessage } from "@/lib/errors";
import { useLiveList, useSettings } from "../api";
import { SettingsForm } from "../components/SettingsForm";

type Locations = SettingValues["stockLocations"];

/** /settings/stock-locations — which ERP warehouses add up into which shop stock location. */
export default function StockLocationsPage() {
  const { t } = useTranslation();
  const settings = useSettings("StockLocations");
  const shop = useLiveList("e-commerce/custom-data/depo-list");
  const erp = useLiveList("custom-data/depo-list");
  const title = t("connections.stockLocations.title");
  return (
    <>
      <PageHeader
        title={title}
        description={t("connections.stockLocations.subtitle")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <SectionCard title={title}>
        <QueryBoundary query={settings} minHeight={160}>
          {(list) => (
            <SettingsForm settings={list} label={title}>
              {({ draft, set, errors }) => {
                const value: Locations = draft.stockLocations ?? [];
                const erpOf = (id: string) => value.find((l) => l.shopLocationId === id)?.erpLocations ?? [];
                const change = (id: string, erpLocations: string[]) =>
                  set("stockLocations", [
                    ...value.filter((l) => l.shopLocationId !== id),
                    ...(erpLocations.length > 0 ? [{ shopLocationId: id, erpLocations }] : []),
                  ]);
                const erpData = (erp.data ?? []).map((d) => ({ value: d.id, label: `${d.id} · ${d.name}` }));
                return (
                  <Stack gap="md">
                    <Text size="sm" c="dimmed">
                      {t("connections.stockLocations.hint")}
                    </Text>
                    {(shop.isError || erp.isError) && (
                      <Alert color="red" variant="light" role="alert">
                        {errorMessage(shop.error ?? erp.error)}
                      </Alert>
                    )}
                    {errors.stockLocations && <Text c="red">{errors.stockLocations}</Text>}
                    <DataTable
                      withTableBorder
                      verticalSpacing="sm"
                      columns={[
                        t("connections.stockLocations.shopLocation"),
                        t("connections.stockLocations.erpWarehouses"),
                      ]}
                    >
                      {(shop.data ?? []).map((loc) => (
                        <Table.Tr key={loc.id}>
                          <Table.Td>{loc.name}</Table.Td>
                          <Table.Td>
                            <MultiSelect
                              aria-label={`${t("connections.stockLocations.erpWarehouses")}: ${loc.name}`}
                              data={erpData}
                              value={erpOf(loc.id)}
                              onChange={(v) => change(loc.id, v)}
                              placeholder={t("connections.stockLocations.none")}
                              clearable
                            />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </DataTable>
                  </Stack>
                );
              }}
            </SettingsForm>
          )}
        </QueryBoundary>
      </SectionCard>
    </>
  );
}
