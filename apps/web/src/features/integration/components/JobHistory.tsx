import type { JobDto } from "@ep/contracts";
import { Button, Group, MultiSelect, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DataTable } from "@/components/table/DataTable";
import { ServerPagination, usePager } from "@/components/table/ServerPagination";
import { DateRangeFilter, type DayRange, rangeQuery } from "@/features/reports/components/DateRangeFilter";
import { formatCounts, formatDateTime } from "@/lib/format";
import { AREA_JOB_TYPES, type Area, type ChannelChoice, useJobHistory } from "../api";
import { RecentRuns } from "./RecentRuns";
import { RunReportModal } from "./RunReportModal";
import { RunStatusBadge } from "./RunStatusBadge";

const PAGE_SIZE = 10;

/** Job history with the spec's filters (job types, date range), server paging and a report per run. */
export function JobHistory({ area, jobs, channel }: { area: Area; jobs: JobDto[]; channel?: ChannelChoice }) {
  const { t } = useTranslation();
  const [types, setTypes] = useState<string[]>([]);
  const [range, setRange] = useState<DayRange>([null, null]);
  const pager = usePager(PAGE_SIZE);
  const { page, setPage } = pager;
  const [reportId, setReportId] = useState<number | null>(null);
  const filter = {
    jobTypes: types.length > 0 ? types : [...AREA_JOB_TYPES[area]],
    ...rangeQuery(range),
    ...(channel === undefined ? {} : { channel }),
  };
  const history = useJobHistory(filter, page, PAGE_SIZE);
  const options = AREA_JOB_TYPES[area].map((type) => ({
    value: type,
    label: jobs.find((j) => j.type === type)?.name ?? type,
  }));
  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <MultiSelect
          label={t("integration.history.jobTypes")}
          placeholder={t("integration.history.allJobs")}
          data={options}
          value={types}
          onChange={(v) => {
            setTypes(v);
            setPage(1);
          }}
          clearable
          w={320}
        />
        <DateRangeFilter
          value={range}
          onChange={(r) => {
            setRange(r);
            setPage(1);
          }}
        />
      </Group>
      <RecentRuns filter={filter} />
      <QueryBoundary
        query={history}
        isEmpty={(d) => d.dataList.length === 0}
        emptyMessage={t("integration.history.empty")}
      >
        {(data) => (
          <Stack gap="sm">
            <DataTable
              minWidth={760}
              striped
              verticalSpacing="xs"
              data-testid="job-history"
              columns={[
                t("integration.history.job"),
                t("integration.history.trigger"),
                t("integration.history.status"),
                t("integration.history.started"),
                t("integration.history.finished"),
                t("integration.history.result"),
                "",
              ]}
            >
              {data.dataList.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td>{run.jobName}</Table.Td>
                  <Table.Td>{t(`integration.trigger.${run.trigger}`)}</Table.Td>
                  <Table.Td>
                    <RunStatusBadge status={run.status} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(run.started_date ?? run.queued_date)}</Table.Td>
                  <Table.Td>{formatDateTime(run.finished_date)}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{t("integration.counts", formatCounts(run.counts))}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-xs" variant="light" onClick={() => setReportId(run.id)}>
                      {t("integration.history.report")}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            <ServerPagination pager={pager} totalCount={data.totalCount} />
          </Stack>
        )}
      </QueryBoundary>
      {reportId !== null && <RunReportModal runId={reportId} onClose={() => setReportId(null)} />}
    </Stack>
  );
}
