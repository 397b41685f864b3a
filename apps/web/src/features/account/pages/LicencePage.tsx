import type { License } from "@ep/contracts";
import { Badge, Card, Group, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { formatDate } from "@/lib/format";
import { useLicences } from "../api";
import { DaysLeftBadge } from "../components/DaysLeftBadge";
import { productTypeLabel } from "../components/licence-labels";

export default function LicencePage() {
  const { t } = useTranslation();
  const licences = useLicences();
  return (
    <>
      <PageHeader
        title={t("licence.title")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <Card p={0}>
        <QueryBoundary
          query={licences}
          isEmpty={(d) => d.length === 0}
          emptyMessage={t("licence.empty")}
          minHeight={240}
        >
          {(data) => <LicenceTable licences={data} />}
        </QueryBoundary>
      </Card>
    </>
  );
}

function LicenceTable({ licences }: { licences: License[] }) {
  const { t } = useTranslation();
  return (
    <ResponsiveTable
      minWidth={760}
      verticalSpacing="md"
      horizontalSpacing="lg"
      highlightOnHover
      data-testid="licence-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t("licence.name")}</Table.Th>
          <Table.Th>{t("licence.description")}</Table.Th>
          <Table.Th>{t("licence.productType")}</Table.Th>
          <Table.Th style={{ whiteSpace: "nowrap" }}>{t("licence.expireDate")}</Table.Th>
          <Table.Th style={{ whiteSpace: "nowrap" }}>{t("licence.daysLeft")}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {licences.map((l) => (
          <Table.Tr key={l.id}>
            <Table.Td>
              <Group gap="xs">
                <Text fw={600} size="sm">
                  {l.license_name}
                </Text>
                {l.is_trial && (
                  <Badge size="sm" variant="outline" color="gray">
                    {t("licence.trial")}
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {l.license_description}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{productTypeLabel(l.product_type)}</Text>
            </Table.Td>
            <Table.Td style={{ whiteSpace: "nowrap" }}>
              <Text size="sm">{formatDate(l.expire_date)}</Text>
            </Table.Td>
            <Table.Td style={{ whiteSpace: "nowrap" }}>
              <DaysLeftBadge days={l.days_left} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
