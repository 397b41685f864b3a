import { type Company, ECOMMERCE_TYPES, ERP_TYPES } from "@ep/contracts";
import { Button, Grid, Stack, Text } from "@mantine/core";
import { IconShieldLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState } from "@/components/feedback/EmptyState";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { formatDate } from "@/lib/format";
import { useAccount } from "../api";
import { CompanyForm } from "../components/CompanyForm";
import { SectionCard } from "../components/SectionCard";

const labelOf = (list: readonly { value: number; label: string }[], value: number) =>
  list.find((o) => o.value === value)?.label ?? "-";

/** /settings/company — the company's details, and the systems it chose at sign-up. */
export default function CompanyPage() {
  const { t } = useTranslation();
  const account = useAccount();
  return (
    <>
      <PageHeader
        title={t("company.title")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <QueryBoundary query={account} minHeight={240}>
        {(data) =>
          data.company ? (
            <Grid gap="lg">
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <SectionCard title={t("company.title")}>
                  <CompanyForm key={data.company.id} company={data.company} />
                </SectionCard>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <Stack gap="lg">
                  <SectionCard title={t("company.systemsSection")}>
                    <CompanySystems company={data.company} />
                  </SectionCard>
                  <Button
                    component={Link}
                    to="/settings/privacy"
                    variant="subtle"
                    leftSection={<IconShieldLock size={16} />}
                    justify="flex-start"
                  >
                    {t("privacy.card.text")}
                  </Button>
                </Stack>
              </Grid.Col>
            </Grid>
          ) : (
            <EmptyState message={t("company.noCompany")} />
          )
        }
      </QueryBoundary>
    </>
  );
}

function CompanySystems({ company }: { company: Company }) {
  const { t } = useTranslation();
  const rows = [
    { label: t("company.erpType"), value: labelOf(ERP_TYPES, company.erpType) },
    { label: t("company.ecommerceType"), value: labelOf(ECOMMERCE_TYPES, company.ecommerceType) },
    { label: t("company.createdDate"), value: formatDate(company.created_Date) },
  ];
  return (
    <Stack gap="md" component="dl" m={0}>
      {rows.map((r) => (
        <div key={r.label}>
          <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
            {r.label}
          </Text>
          <Text component="dd" m={0} fw={500}>
            {r.value}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
