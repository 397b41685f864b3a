import { Group, Modal, SimpleGrid, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { OpenTicketButton } from "@/features/tickets/components/OpenTicketButton";
import { formatCounts, formatDateTime } from "@/lib/format";
import { useRunReport } from "../api";
import { RunStatusBadge } from "./RunStatusBadge";

/** The report of one run (GET /api/JobHistory/report/{id}). */
export function RunReportModal({ runId, onClose }: { runId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useRunReport(runId);
  return (
    <Modal opened onClose={onClose} title={t("integration.history.reportTitle")} size="lg">
      <QueryBoundary query={report}>
        {(r) => (
          <Stack gap="sm" data-testid="run-report">
            <Text fw={600}>
              {r.jobName} <RunStatusBadge status={r.status} />
            </Text>
            <SimpleGrid cols={2} spacing="xs">
              <Text size="sm">
                {t("integration.history.started")}: {formatDateTime(r.started_date)}
              </Text>
              <Text size="sm">
                {t("integration.history.finished")}: {formatDateTime(r.finished_date)}
              </Text>
            </SimpleGrid>
            <Text size="sm">{t("integration.counts", formatCounts(r.counts))}</Text>
            <Text size="sm" c="dimmed">
              {t("integration.history.calls", {
                erpRead: r.calls.erp.read,
                erpWrite: r.calls.erp.write,
                shopRead: r.calls.shop.read,
                shopWrite: r.calls.shop.write,
              })}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
              {r.report || t("integration.history.noReport")}
            </Text>
            {r.status !== "Succeeded" && r.status !== "Running" && r.status !== "Queued" && (
              <Group justify="flex-end">
                <OpenTicketButton
                  jobRunId={r.id}
                  context={{
                    job: r.jobName,
                    reason: `${t(`integration.status.${r.status}`)} (${formatDateTime(r.started_date)})`,
                  }}
                />
              </Group>
            )}
          </Stack>
        )}
      </QueryBoundary>
    </Modal>
  );
}
