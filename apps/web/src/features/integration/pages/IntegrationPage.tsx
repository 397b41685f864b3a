import type { RunEventDto } from "@ep/contracts";
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Tabs, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import {
  type Area,
  type ChannelChoice,
  inChannel,
  isFinished,
  useJobs,
  useRunEvents,
  useRunReport,
} from "../api";
import { CategoryMappingSection } from "../components/CategoryMappingSection";
import { ChannelSelect } from "../components/ChannelSelect";
import { JobCard } from "../components/JobCard";
import { JobHistory } from "../components/JobHistory";
import { RunReportModal } from "../components/RunReportModal";

/** /integration/product/* and /integration/order/*: the area's jobs, live runs and their history. */
export default function IntegrationPage({ area }: { area: Area }) {
  const { t } = useTranslation();
  const jobs = useJobs(area);
  const [channel, setChannel] = useState<ChannelChoice>(undefined);
  const [finished, setFinished] = useState<Finished[]>([]);
  const [reportId, setReportId] = useState<number | null>(null);
  const addFinished = useCallback(
    (f: Finished) =>
      setFinished((list) => (list.some((x) => x.runId === f.runId) ? list : [f, ...list].slice(0, 3))),
    [],
  );
  const onEvent = useCallback(
    (e: RunEventDto) => addFinished({ runId: e.runId, jobId: e.jobId }),
    [addFinished],
  );
  useRunEvents(area, onEvent);
  // A run that ended between two long polls is noticed when it leaves the jobs list.
  const active = useRef(new Map<number, number>());
  useEffect(() => {
    if (!jobs.data) return;
    const now = new Map<number, number>();
    for (const j of jobs.data) if (j.active_run) now.set(j.active_run.id, j.id);
    for (const [runId, jobId] of active.current) if (!now.has(runId)) addFinished({ runId, jobId });
    active.current = now;
  }, [jobs.data, addFinished]);
  const title = t(`integration.menu.${area}`);
  const jobName = (jobId: number) => jobs.data?.find((j) => j.id === jobId)?.name ?? "";
  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Group gap="sm">
            {area === "order" && (
              <Button component={Link} to="/integration/order/invoices" variant="light">
                {t("integration.invoicesLink")}
              </Button>
            )}
            <Button component={Link} to={`/integration/${area}/failed-tasks`} variant="light" color="red">
              {t("integration.failedTasks.title")}
            </Button>
          </Group>
        }
      />
      <Stack gap="lg">
        <ChannelSelect value={channel} onChange={setChannel} />
        {area === "product" && typeof channel === "number" && <CategoryMappingSection channelId={channel} />}
        {finished.map((f) => (
          <FinishedAlert
            key={f.runId}
            runId={f.runId}
            jobName={jobName(f.jobId)}
            onReport={() => setReportId(f.runId)}
            onClose={() => setFinished((list) => list.filter((x) => x.runId !== f.runId))}
          />
        ))}
        <Tabs defaultValue="jobs" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="jobs">{t("integration.tabs.jobs")}</Tabs.Tab>
            <Tabs.Tab value="history">{t("integration.tabs.history")}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="jobs">
            <QueryBoundary query={jobs} isEmpty={(d) => d.length === 0} emptyMessage={t("integration.empty")}>
              {(data) => (
                <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="lg">
                  {data
                    .filter((job) => inChannel(job, channel))
                    .map((job) => (
                      <JobCard key={job.id} job={job} />
                    ))}
                </SimpleGrid>
              )}
            </QueryBoundary>
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <Card>
              <Title order={2} fz="lg" fw={600} mb="sm">
                {t("integration.tabs.history")}
              </Title>
              <JobHistory area={area} jobs={jobs.data ?? []} channel={channel} />
            </Card>
          </Tabs.Panel>
        </Tabs>
      </Stack>
      {reportId !== null && <RunReportModal runId={reportId} onClose={() => setReportId(null)} />}
    </>
  );
}

type Finished = { runId: number; jobId: number };

/** A run that just ended: its outcome (read from its report) and a link to the report. */
function FinishedAlert(props: { runId: number; jobName: string; onReport: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useRunReport(props.runId, true);
  const status = report.data?.status;
  if (!status || !isFinished(status)) return null;
  const ok = status === "Succeeded";
  return (
    <Alert
      color={ok ? "green" : "orange"}
      icon={ok ? <IconCircleCheck size={18} /> : <IconAlertTriangle size={18} />}
      withCloseButton
      closeButtonLabel={t("common.close")}
      onClose={props.onClose}
      data-testid="run-finished"
    >
      <Group gap="sm">
        {t("integration.finished", { job: props.jobName, status: t(`integration.status.${status}`) })}
        {/* The alert's own text colour: a link colour on its tinted background fell below 4.5:1. */}
        <Anchor component="button" size="sm" c="inherit" underline="always" fw={600} onClick={props.onReport}>
          {t("integration.history.report")}
        </Anchor>
      </Group>
    </Alert>
  );
}
