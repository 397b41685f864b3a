import { Card, Group, SegmentedControl, Skeleton, Stack, Text, Title } from "@mantine/core";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { formatMoney } from "@/lib/format";
import { type SalesPeriod, useSalesReports } from "../api";
import { buildSalesSeries } from "../sales-series";

// The chart library loads after the dashboard's first paint.
const SalesAreaChart = lazy(() => import("./SalesAreaChart"));

/** Spec section 9: the chart is 400 px high. */
const CHART_HEIGHT = 400;

/** 'Satış Grafiği': weekly (default) or monthly sales per day as an area chart. */
export function SalesChartCard() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<SalesPeriod>("weekly");
  const sales = useSalesReports(period);
  return (
    <Card data-testid="sales-chart-card">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="lg" fw={600}>
          {t("dashboard.sales.title")}
        </Title>
        <SegmentedControl
          size="xs"
          value={period}
          onChange={(v) => setPeriod(v as SalesPeriod)}
          data={[
            { value: "weekly", label: t("dashboard.sales.weekly") },
            { value: "monthly", label: t("dashboard.sales.monthly") },
          ]}
          aria-label={t("dashboard.sales.period")}
        />
      </Group>
      <QueryBoundary
        query={sales}
        minHeight={CHART_HEIGHT}
        skeleton={<Skeleton height={CHART_HEIGHT + 60} />}
      >
        {(entries) => {
          const { points, total, ticks } = buildSalesSeries(entries, period);
          return (
            <Stack gap="xs">
              <div>
                <Text size="sm" c="dimmed">
                  {t(period === "weekly" ? "dashboard.sales.weeklyTotal" : "dashboard.sales.monthlyTotal")}
                </Text>
                <Text fz={24} fw={700} data-testid="sales-total">
                  {formatMoney(total)}
                </Text>
              </div>
              <div style={{ height: CHART_HEIGHT }} data-testid="sales-chart" data-points={points.length}>
                <Suspense fallback={<Skeleton height={CHART_HEIGHT} />}>
                  <SalesAreaChart
                    points={points}
                    ticks={ticks}
                    height={CHART_HEIGHT}
                    amountLabel={t("dashboard.sales.amount")}
                    dayLabel={t("dashboard.sales.day")}
                  />
                </Suspense>
              </div>
            </Stack>
          );
        }}
      </QueryBoundary>
    </Card>
  );
}
