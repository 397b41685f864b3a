import type { DashboardDto } from "@ep/contracts";
import { Avatar, Button, Card, Grid, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconBuilding, IconUser } from "@tabler/icons-react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CardSkeleton } from "@/components/feedback/CardSkeleton";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { useAccount } from "@/features/account/api";
import { useSession } from "@/features/auth/session-store";
import { useDashboard } from "./api";
import {
  AnnouncementsCard,
  CompanyJobsWidget,
  ConnectionStatusCard,
  EInvoiceServiceCard,
  FailedJobsCard,
  FreshnessCard,
  IntegrationReports,
  LicenceExpiryCard,
  TaskNotificationsWidget,
} from "./components/DashboardCards";
import { IntegrationJobsCard } from "./components/IntegrationJobsCard";
import { SalesChartCard } from "./components/SalesChartCard";

// Only a company still setting up loads the checklist (and its texts' weight on the first view).
const FirstStepsCard = lazy(() => import("./components/FirstStepsCard"));

/** Both sides connected and a run has succeeded: the checklist would hide itself, so skip loading it. */
const settingUp = (d: DashboardDto) =>
  d.connectionStatuses.erp.state !== "connected" ||
  d.connectionStatuses.eCommerce.state !== "connected" ||
  !d.companyJobs.some((j) => j.last_success_date !== null);

/** The dashboard: every card of spec section 2, fed by GET /api/Dashboard. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  return (
    <>
      <PageHeader title={t("dashboard.title")} />
      <Stack gap="lg">
        {dashboard.data && settingUp(dashboard.data) && (
          <Suspense fallback={null}>
            <FirstStepsCard data={dashboard.data} />
          </Suspense>
        )}
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <WelcomeCard />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <QueryBoundary
              query={dashboard}
              minHeight={120}
              skeleton={<CardSkeleton height={150} lines={3} />}
            >
              {(data) => <ConnectionStatusCard data={data} />}
            </QueryBoundary>
          </Grid.Col>
        </Grid>
        <QueryBoundary query={dashboard} minHeight={200} skeleton={<DashboardSkeleton />}>
          {(data) => (
            <Stack gap="lg">
              <IntegrationReports data={data} />
              <Grid gap="lg">
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <EInvoiceServiceCard data={data} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <LicenceExpiryCard data={data} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <FailedJobsCard data={data} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <AnnouncementsCard data={data} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <CompanyJobsWidget data={data} />
                </Grid.Col>
                {/* Six cards: two rows of three, or three of two; no row ends in a hole. */}
                <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
                  <TaskNotificationsWidget />
                </Grid.Col>
              </Grid>
              {/* A table of seven flows with bars: too wide for a third of the row. */}
              <FreshnessCard data={data} />
              <SalesChartCard />
              <IntegrationJobsCard jobs={data.companyJobs} />
            </Stack>
          )}
        </QueryBoundary>
      </Stack>
    </>
  );
}

/** The dashboard's cards as outlines, in the grid they will fill. */
function DashboardSkeleton() {
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }} spacing="lg">
        {[0, 1, 2, 3].map((i) => (
          <CardSkeleton key={i} height={110} lines={2} />
        ))}
      </SimpleGrid>
      <Grid gap="lg">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Grid.Col key={i} span={{ base: 12, md: 6, xl: 4 }}>
            <CardSkeleton height={200} lines={4} />
          </Grid.Col>
        ))}
      </Grid>
    </Stack>
  );
}

function WelcomeCard() {
  const { t } = useTranslation();
  const { user } = useSession();
  const account = useAccount();
  const person = account.data?.companyUser ?? user;
  const name = [person?.first_Name, person?.last_Name].filter(Boolean).join(" ");
  return (
    <Card h="100%">
      <Stack gap="md">
        <Group gap="md" wrap="nowrap">
          <Avatar color="brand" size={56} radius="md">
            {person?.first_Name?.charAt(0).toLocaleUpperCase("tr-TR")}
          </Avatar>
          <div>
            <Title order={2} fz="lg" fw={600} data-testid="welcome-title">
              {t("dashboard.welcome", { name })}
            </Title>
            {account.data?.company && (
              <Text size="sm" c="dimmed">
                {t("dashboard.welcomeText", { company: account.data.company.company_Name })}
              </Text>
            )}
          </div>
        </Group>
        <Group gap="sm">
          <Button
            component={Link}
            to="/settings/account/details"
            variant="light"
            leftSection={<IconUser size={16} />}
          >
            {t("dashboard.editProfile")}
          </Button>
          <Button
            component={Link}
            to="/settings/company"
            variant="default"
            leftSection={<IconBuilding size={16} />}
          >
            {t("dashboard.companySettings")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
