import { Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconFileSpreadsheet } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { DataTable } from "@/components/table/DataTable";
import { ServerPagination, usePager } from "@/components/table/ServerPagination";
import { ApiError, requestBlob } from "@/lib/api-client";
import { formatDateTime, formatMoney, formatNumber } from "@/lib/format";
import { saveFile } from "@/lib/spreadsheet";
import { useRunStatistics, useSalesReport } from "../api";
import { DateRangeFilter, type DayRange, rangeQuery } from "../components/DateRangeFilter";

const PAGE_SIZE = 20;

/** /reports: the sales report with totals, a date range and xlsx export; job run statistics below. */
export default function ReportsPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<DayRange>([
    dayjs().startOf("month").format("YYYY-MM-DD"),
    dayjs().format("YYYY-MM-DD"),
  ]);
  const pager = usePager(PAGE_SIZE);
  const { page, setPage } = pager;
  const query = rangeQuery(range);
  const sales = useSalesReport(page, PAGE_SIZE, query);
  const stats = useRunStatistics(query);

  // The server writes every order of the range (not the page on screen), so the file's rows add
  // up to the Toplam shown here.
  const exportXlsx = useMutation({
    mutationFn: () => requestBlob("/api/SalesReport/export", { query }),
    onSuccess: (blob) => saveFile(blob, blob.fileName ?? "satis-raporu.xlsx"),
    onError: (e) =>
      notifications.show({
        color: "red",
        message: e instanceof ApiError && e.message ? e.message : t("reports.exportFailed"),
      }),
  });

  return (
    <>
      <PageHeader title={t("reports.title")} />
      <Stack gap="lg">
        <Card>
          <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
            <DateRangeFilter
              value={range}
              onChange={(r) => {
                setRange(r);
                setPage(1);
              }}
            />
            <Button
              leftSection={<IconFileSpreadsheet size={16} />}
              variant="light"
              disabled={!sales.data || sales.data.dataList.length === 0}
              loading={exportXlsx.isPending}
              onClick={() => exportXlsx.mutate()}
            >
              {t("reports.export")}
            </Button>
          </Group>
          <Title order={2} fz="lg" fw={600} mb="sm">
            {t("reports.salesTitle")}
          </Title>
          <QueryBoundary
            query={sales}
            isEmpty={(d) => d.dataList.length === 0}
            emptyMessage={t("reports.empty")}
          >
            {(data) => (
              <Stack gap="sm">
                <Group gap="xl">
                  <Text size="sm">
                    {t("reports.orderCount")}:{" "}
                    <b data-testid="report-count">{formatNumber(data.totalCount)}</b>
                  </Text>
                  <Text size="sm">
                    {t("reports.total")}: <b data-testid="report-total">{formatMoney(data.totalAmount)}</b>
                  </Text>
                </Group>
                <DataTable
                  minWidth={640}
                  striped
                  verticalSpacing="xs"
                  columns={[
                    t("reports.orderNo"),
                    t("reports.date"),
                    t("reports.customer"),
                    t("reports.state"),
                    { label: t("reports.amount"), align: "right" },
                  ]}
                >
                  {data.dataList.map((o) => (
                    <Table.Tr key={o.id} data-testid="sales-row">
                      <Table.Td>{o.orderNo}</Table.Td>
                      <Table.Td>{formatDateTime(o.order_date)}</Table.Td>
                      <Table.Td>{o.customer}</Table.Td>
                      <Table.Td>{t(`reports.states.${o.state}`, { defaultValue: o.state })}</Table.Td>
                      <Table.Td ta="right">{formatMoney(o.grand_total)}</Table.Td>
                    </Table.Tr>
                  ))}
                </DataTable>
                <ServerPagination pager={pager} totalCount={data.totalCount} />
              </Stack>
            )}
          </QueryBoundary>
        </Card>
        <Card>
          <Title order={2} fz="lg" fw={600} mb="sm">
            {t("reports.statsTitle")}
          </Title>
          <QueryBoundary query={stats} isEmpty={(d) => d.length === 0} emptyMessage={t("reports.statsEmpty")}>
            {(data) => (
              <DataTable
                verticalSpacing="xs"
                data-testid="run-statistics"
                columns={[
                  t("reports.job"),
                  { label: t("reports.runs"), align: "right" },
                  { label: t("reports.failures"), align: "right" },
                  { label: t("reports.written"), align: "right" },
                  { label: t("reports.failedItems"), align: "right" },
                ]}
              >
                {data.map((s) => (
                  <Table.Tr key={s.jobType}>
                    <Table.Td>{s.name}</Table.Td>
                    <Table.Td ta="right">{formatNumber(s.runs)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(s.failures)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(s.written)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(s.failed)}</Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
            )}
          </QueryBoundary>
        </Card>
      </Stack>
    </>
  );
}
