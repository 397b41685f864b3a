import { JOB_TYPES, type JobDto, type JobType } from "@ep/contracts";
import { Alert, Anchor, Button, Grid, Group, Stack, Switch, Tabs, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useParams } from "react-router";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { SectionCard } from "@/features/account/components/SectionCard";
import { IntervalInput } from "@/features/integration/components/IntervalInput";
import { describeSchedule, intervalMinutes } from "@/features/integration/schedule";
import { errorMessage } from "@/lib/errors";
import { useCompanyJobs, useSettings, useUpdateJob } from "../api";
import { ErpMatchingCard } from "../components/ErpMatchingCard";
import { OrderOptions, PriceOptions, ProductOptions, StockOptions } from "../components/JobOptions";
import { PreviewCard } from "../components/PreviewCard";
import { SandboxConnectButton } from "../components/SandboxConnect";
import { SettingsForm } from "../components/SettingsForm";

const isJobType = (v: string | undefined): v is JobType => (JOB_TYPES as readonly string[]).includes(v ?? "");

/** /settings/integration/{JobType} — one job's schedule, on/off and the options the engine reads. */
export default function IntegrationSettingsPage() {
  const { t } = useTranslation();
  const { jobType } = useParams();
  const navigate = useNavigate();
  if (!isJobType(jobType)) return <Navigate to="/settings/integration/ProductIntegration" replace />;
  return (
    <>
      <PageHeader
        title={t("connections.integration.title")}
        description={t("connections.integration.subtitle")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <Tabs value={jobType} onChange={(v) => v && navigate(`/settings/integration/${v}`)} mb="lg">
        <Tabs.List>
          {JOB_TYPES.map((type) => (
            <Tabs.Tab key={type} value={type}>
              {t(`connections.jobTypes.${type}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <JobCard key={`job-${jobType}`} jobType={jobType} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <OptionsCard key={`options-${jobType}`} jobType={jobType} />
        </Grid.Col>
        {(jobType === "PriceIntegration" || jobType === "StockIntegration") && (
          <Grid.Col span={12}>
            <JobPreview key={`preview-${jobType}`} jobType={jobType} />
          </Grid.Col>
        )}
        {jobType === "ProductIntegration" && (
          <Grid.Col span={12}>
            <ErpMatchingCard />
          </Grid.Col>
        )}
      </Grid>
    </>
  );
}

function JobCard({ jobType }: { jobType: JobType }) {
  const { t } = useTranslation();
  const jobs = useCompanyJobs();
  return (
    <SectionCard title={t("connections.integration.jobSection")}>
      <QueryBoundary query={jobs} minHeight={120}>
        {(list) => {
          const job = list.find((j) => j.type === jobType);
          return job ? (
            <JobForm job={job} />
          ) : (
            <Alert color="yellow" variant="light">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">
                  {t("connections.integration.noJobs")}{" "}
                  <Anchor component={Link} to="/settings/api-keys">
                    {t("connections.apiKeys.title")}
                  </Anchor>
                </Text>
                <SandboxConnectButton compact />
              </Stack>
            </Alert>
          );
        }}
      </QueryBoundary>
    </SectionCard>
  );
}

function JobForm({ job }: { job: JobDto }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateJob();
  const [enabled, setEnabled] = useState(job.is_enabled);
  const [minutesText, setMinutesText] = useState<number | string>(
    job.schedule.kind === "interval" ? job.schedule.minutes : 60,
  );
  const minutes = intervalMinutes(minutesText);
  const [error, setError] = useState<string | null>(null);
  const cron = job.schedule.kind === "cron" ? job.schedule.expression : null;
  const onSave = async () => {
    setError(null);
    try {
      const { message } = await update.mutateAsync({
        id: job.id,
        is_enabled: enabled,
        ...(cron || minutes === null ? {} : { schedule: { kind: "interval" as const, minutes } }),
      });
      notifications.show({ color: "green", message });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Stack gap="md">
      <Text fw={600}>{job.name}</Text>
      <Switch
        label={enabled ? t("connections.integration.enabled") : t("connections.integration.disabled")}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
      {cron ? (
        <Text size="sm">{describeSchedule(job.schedule, t, i18n.language)}</Text>
      ) : (
        <IntervalInput
          label={t("connections.integration.everyMinutes")}
          value={minutesText}
          onChange={setMinutesText}
        />
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          onClick={onSave}
          loading={update.isPending}
          disabled={!cron && minutes === null}
          variant="light"
        >
          {t("connections.integration.saveJob")}
        </Button>
      </Group>
    </Stack>
  );
}

function OptionsCard({ jobType }: { jobType: JobType }) {
  const { t } = useTranslation();
  const settings = useSettings(jobType);
  const title = t("connections.integration.optionsSection");
  return (
    <SectionCard title={title}>
      <QueryBoundary
        query={settings}
        minHeight={160}
        isEmpty={(list) => list.length === 0}
        emptyMessage={t("connections.integration.noOptions")}
      >
        {(list) => (
          <SettingsForm settings={list} label={title}>
            {(draft) => {
              switch (jobType) {
                case "ProductIntegration":
                  return <ProductOptions {...draft} withCreate />;
                case "ProductUpdate":
                case "CategoryIntegration":
                  return <ProductOptions {...draft} withCreate={false} />;
                case "PriceIntegration":
                  return <PriceOptions {...draft} />;
                case "StockIntegration":
                  return <StockOptions {...draft} />;
                case "OrderIntegration":
                  return <OrderOptions {...draft} />;
                default:
                  return null;
              }
            }}
          </SettingsForm>
        )}
      </QueryBoundary>
    </SectionCard>
  );
}

function JobPreview({ jobType }: { jobType: "PriceIntegration" | "StockIntegration" }) {
  const jobs = useCompanyJobs();
  const job = jobs.data?.find((j) => j.type === jobType);
  return <PreviewCard jobType={jobType} jobId={job?.id ?? null} />;
}
