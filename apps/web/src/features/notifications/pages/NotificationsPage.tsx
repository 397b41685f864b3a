import { Card, Group, Stack, Text } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { ServerPagination, usePager } from "@/components/table/ServerPagination";
import { useAccount } from "@/features/account/api";
import { firstStepsStorageKey } from "@/features/dashboard/first-steps";
import { formatDateTime } from "@/lib/format";
import { useMarkAsRead, useNotifications } from "../api";
import { NotificationItem } from "../components/NotificationItem";

const PAGE_SIZE = 20;

/** Every notification of the company, newest first, paged on the server. */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const pager = usePager(PAGE_SIZE);
  const list = useNotifications(pager.page, PAGE_SIZE);
  const markRead = useMarkAsRead();
  const companyId = useAccount().data?.company?.id;
  // Ticks the dashboard's first-steps "Bildirimler" step: the user has found this screen.
  useEffect(() => {
    if (companyId !== undefined)
      localStorage.setItem(firstStepsStorageKey(companyId, "notificationsSeen"), "1");
  }, [companyId]);
  return (
    <>
      <PageHeader title={t("notifications.allTitle")} />
      <Card>
        <QueryBoundary
          query={list}
          isEmpty={(d) => d.dataList.length === 0}
          emptyMessage={t("notifications.empty")}
        >
          {(data) => (
            <Stack gap="xs">
              {data.dataList.map((n) => (
                <Group key={n.id} wrap="nowrap" align="flex-start" justify="space-between">
                  <div style={{ flex: 1 }}>
                    <NotificationItem item={n} onRead={(id) => markRead.mutate(id)} />
                  </div>
                  <Text size="xs" c="dimmed" pt="sm" style={{ whiteSpace: "nowrap" }}>
                    {formatDateTime(n.created_Date)}
                  </Text>
                </Group>
              ))}
              <ServerPagination pager={pager} totalCount={data.totalCount} />
            </Stack>
          )}
        </QueryBoundary>
      </Card>
    </>
  );
}
