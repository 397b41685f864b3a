import type { JobDto } from "@ep/contracts";
import { Badge, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { IconCircleCheckFilled, IconCircleXFilled, IconClockHour4 } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "@/components/table/DataTable";
import { type ChannelChoice, inChannel } from "@/features/integration/api";
import { ChannelSelect, useChannelName } from "@/features/integration/components/ChannelSelect";
import { JobIcon } from "@/features/integration/components/JobIcon";
import { formatDateTime } from "@/lib/format";

// Only a company without jobs sees it: loaded then, not with every dashboard (the first view's budget).
const SandboxConnectButton = lazy(() =>
  import("@/features/connections/components/SandboxConnect").then((m) => ({
    default: m.SandboxConnectButton,
  })),
);

/** 'Entegrasyon Görevleri': name with its icon, last run, Aktif/Pasif and the outcome image. */
export function IntegrationJobsCard({ jobs: all }: { jobs: JobDto[] }) {
  const { t } = useTranslation();
  // Every channel's jobs (the total) by default; a company with marketplaces can pick one (issue 37).
  const [channel, setChannel] = useState<ChannelChoice>(undefined);
  const jobs = all.filter((job) => inChannel(job, channel));
  return (
    <Card data-testid="integration-jobs-card">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="lg" fw={600}>
          {t("dashboard.jobs.title")}
        </Title>
        {all.length > 0 && <ChannelSelect value={channel} onChange={setChannel} />}
      </Group>
      {jobs.length === 0 ? (
        <Stack gap="sm" align="flex-start">
          <Text size="sm" c="dimmed">
            {t("dashboard.jobs.empty")}
          </Text>
          {/* A new company has nothing connected yet: it can try the panel on the sandboxes at once. */}
          <Suspense fallback={null}>
            <SandboxConnectButton compact />
          </Suspense>
        </Stack>
      ) : (
        <DataTable
          minWidth={520}
          verticalSpacing="sm"
          columns={[
            t("dashboard.jobs.name"),
            t("dashboard.jobs.lastRun"),
            t("dashboard.jobs.enabled"),
            t("dashboard.jobs.status"),
          ]}
        >
          {jobs.map((job) => (
            <Table.Tr key={job.id} data-testid="integration-job-row">
              <Table.Td>
                <Group gap="sm" wrap="nowrap">
                  <JobIcon job={job} />
                  <Text size="sm" fw={500}>
                    {job.name}
                  </Text>
                  <ChannelBadge channelId={job.channel_id} />
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                <Text size="sm">{formatDateTime(job.last_run_date)}</Text>
              </Table.Td>
              <Table.Td>
                <Badge color={job.is_enabled ? "green" : "gray"} variant="light">
                  {job.is_enabled ? t("dashboard.jobs.active") : t("dashboard.jobs.passive")}
                </Badge>
              </Table.Td>
              <Table.Td>
                {job.last_Run_State === true ? (
                  <IconCircleCheckFilled
                    size={22}
                    color="var(--mantine-color-green-6)"
                    aria-label={t("dashboard.jobs.succeeded")}
                    role="img"
                  />
                ) : job.last_Run_State === null ? (
                  // Never ran: no outcome yet, so neither the success nor the failure image.
                  <IconClockHour4
                    size={22}
                    color="var(--mantine-color-gray-5)"
                    aria-label={t("dashboard.reports.neverRun")}
                    role="img"
                  />
                ) : (
                  <IconCircleXFilled
                    size={22}
                    color="var(--mantine-color-red-6)"
                    aria-label={t("dashboard.jobs.failed")}
                    role="img"
                  />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}

/** The marketplace a job serves (none for the shop's jobs, so a shop-only company sees no change). */
function ChannelBadge({ channelId }: { channelId: number | null | undefined }) {
  const name = useChannelName(channelId);
  return name ? (
    <Badge size="xs" variant="outline">
      {name}
    </Badge>
  ) : null;
}
