import { Button, Card, Group, Stack, Text } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { DateRangeFilter, type DayRange, rangeQuery } from "@/features/reports/components/DateRangeFilter";
import { useActivities } from "../api";
import { ActivityTimeline } from "../components/ActivityTimeline";

const PAGE_SIZE = 30;

/** Every activity of the company, newest first, with a date filter and paging. */
export default function ActivitiesPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [range, setRange] = useState<DayRange>([null, null]);
  const list = useActivities(page, PAGE_SIZE, rangeQuery(range));
  return (
    <>
      <PageHeader title={t("activities.allTitle")} />
      <Card>
        <Stack>
          <DateRangeFilter
            value={range}
            onChange={(r) => {
              setRange(r);
              setPage(1);
            }}
          />
          <QueryBoundary query={list} isEmpty={(d) => d.length === 0} emptyMessage={t("activities.empty")}>
            {(data) => <ActivityTimeline items={data} />}
          </QueryBoundary>
          <Group justify="space-between">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconChevronLeft size={14} />}
              disabled={page === 1}
              onClick={() => setPage((p) => p - 1)}
            >
              {t("activities.previous")}
            </Button>
            <Text size="sm" c="dimmed">
              {t("activities.page", { page })}
            </Text>
            <Button
              variant="default"
              size="xs"
              rightSection={<IconChevronRight size={14} />}
              disabled={(list.data?.length ?? 0) < PAGE_SIZE}
              onClick={() => setPage((p) => p + 1)}
            >
              {t("activities.next")}
            </Button>
          </Group>
        </Stack>
      </Card>
    </>
  );
}
