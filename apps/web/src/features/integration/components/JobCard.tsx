import type { JobDto } from "@ep/contracts";
import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Switch, Text } from "@mantine/core";
import { IconCalendarTime, IconPlayerPlay } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "@/lib/errors";
import { formatCounts, formatDateTime } from "@/lib/format";
import { useRunJob, useUpdateJob } from "../api";
import { describeSchedule } from "../schedule";
import { useChannelName } from "./ChannelSelect";
import { JobIcon } from "./JobIcon";
import { RunStatusBadge } from "./RunStatusBadge";
import { ScheduleModal } from "./ScheduleModal";

/** One job: state, last and next run, enable/disable, schedule and 'run now' with live progress. */
export function JobCard({ job }: { job: JobDto }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateJob();
  const run = useRunJob();
  const [editing, setEditing] = useState(false);
  const active = job.active_run;
  const channelName = useChannelName(job.channel_id);
  const error = update.error ?? run.error;
  return (
    <Card data-testid="job-card" data-job-type={job.type}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <JobIcon job={job} />
            <div>
              <Group gap={6}>
                <Text fw={600}>{job.name}</Text>
                {channelName && (
                  <Badge size="xs" variant="outline" data-testid="job-channel">
                    {channelName}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {describeSchedule(job.schedule, t, i18n.language)}
              </Text>
            </div>
          </Group>
          <Badge color={job.is_enabled ? "green" : "gray"} variant="light">
            {job.is_enabled ? t("integration.active") : t("integration.passive")}
          </Badge>
        </Group>
        <SimpleGrid cols={2} spacing="xs">
          <div>
            <Text size="xs" c="dimmed">
              {t("integration.lastRun")}
            </Text>
            <Group gap={6}>
              <Text size="sm">{formatDateTime(job.last_run_date)}</Text>
              {job.last_Run_State !== null && (
                <Badge size="xs" color={job.last_Run_State ? "green" : "red"} variant="light">
                  {job.last_Run_State ? t("integration.succeeded") : t("integration.failed")}
                </Badge>
              )}
            </Group>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t("integration.nextRun")}
            </Text>
            <Text size="sm">
              {job.is_enabled ? formatDateTime(job.next_run_date) : t("integration.passive")}
            </Text>
          </div>
        </SimpleGrid>
        {active && (
          <Stack gap={4} data-testid="job-progress">
            <Group justify="space-between">
              <RunStatusBadge status={active.status} />
              <Text size="xs" c="dimmed" data-testid="job-progress-counts">
                {t("integration.counts", formatCounts(active.counts))}
              </Text>
            </Group>
            <Progress
              value={100}
              animated
              striped
              size="sm"
              aria-label={t(`integration.status.${active.status}`)}
            />
          </Stack>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {errorMessage(error)}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap">
          <Switch
            checked={job.is_enabled}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ id: job.id, is_enabled: e.currentTarget.checked })}
            // The label says the state the switch is in, not the state it would switch to.
            label={job.is_enabled ? t("integration.active") : t("integration.passive")}
            aria-label={t("integration.toggle", { job: job.name })}
          />
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconCalendarTime size={14} />}
              onClick={() => setEditing(true)}
            >
              {t("integration.editSchedule")}
            </Button>
            <Button
              size="xs"
              leftSection={<IconPlayerPlay size={14} />}
              loading={run.isPending}
              disabled={Boolean(active)}
              onClick={() => run.mutate(job.id)}
              data-testid="run-now"
            >
              {t("integration.runNow")}
            </Button>
          </Group>
        </Group>
      </Stack>
      {editing && <ScheduleModal job={job} onClose={() => setEditing(false)} />}
    </Card>
  );
}
