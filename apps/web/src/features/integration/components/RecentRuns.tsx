import { Card, Skeleton, Stack, Text, Title } from "@mantine/core";
import { lazy, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { formatDayMonthTime, formatNumber } from "@/lib/format";
import { type HistoryFilter, useJobHistory } from "../api";
import { recentRunSeries, summarizeRuns } from "../run-series";

// The chart library loads after the history table's first paint.
const RecentRunsChart = lazy(() => import("./RecentRunsChart"));

const RECENT_RUNS = 30;
const CHART_HEIGHT = 240;

/** The filter's last 30 runs at a glance: records written, failures and duration per run. */
export function RecentRuns({ filter }: { filter: HistoryFilter }) {
  const { t } = useTranslation();
  const recent = useJobHistory(filter, 1, RECENT_RUNS);
  const labels = useMemo(
    () => ({
      run: t("integration.recentRuns.run"),
      written: t("integration.recentRuns.written"),
      failed: t("integration.recentRuns.failed"),
      seconds: t("integration.recentRuns.seconds"),
    }),
    [t],
  );
  return (
    <Card withBorder data-testid="recent-runs">
      <Title order={3} fz="md" fw={600} mb="xs">
        {t("integration.recentRuns.title", { count: RECENT_RUNS })}
      </Title>
      <QueryBoundary
        query={recent}
        minHeight={CHART_HEIGHT}
        skeleton={<Skeleton height={CHART_HEIGHT + 30} />}
        isEmpty={(d) => d.dataList.length === 0}
        emptyMessage={t("integration.history.empty")}
      >
        {(data) => {
          const points = recentRunSeries(data.dataList, formatDayMonthTime);
          const summary = summarizeRuns(points);
          return (
            <Stack gap="xs">
              <Text size="sm" c="dimmed" data-testid="recent-runs-summary">
                {t("integration.recentRuns.summary", {
                  runs: formatNumber(summary.runs),
                  written: formatNumber(summary.written),
                  failed: formatNumber(summary.failed),
                  seconds: summary.averageSeconds === null ? "–" : formatNumber(summary.averageSeconds),
                })}
              </Text>
              <div
                style={{ height: CHART_HEIGHT }}
                data-testid="recent-runs-chart"
                data-points={points.length}
              >
                <Suspense fallback={<Skeleton height={CHART_HEIGHT} />}>
                  <RecentRunsChart points={points} height={CHART_HEIGHT} labels={labels} />
                </Suspense>
              </div>
            </Stack>
          );
        }}
      </QueryBoundary>
    </Card>
  );
}
