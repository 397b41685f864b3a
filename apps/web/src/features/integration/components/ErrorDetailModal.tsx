import type { JobErrorReportDto } from "@ep/contracts";
import { Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { OpenTicketButton } from "@/features/tickets/components/OpenTicketButton";
import { formatDateTime } from "@/lib/format";

/** A failed task's error and the payload it tried to move. */
export function ErrorDetailModal({ item, onClose }: { item: JobErrorReportDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t("integration.failedTasks.detailTitle", { key: item.entityKey })}
      size="lg"
    >
      <Stack gap="sm" data-testid="error-detail">
        <Text size="sm">
          <b>{t("integration.failedTasks.errorType")}:</b> {item.errorType}
        </Text>
        <Text size="sm">
          <b>{t("integration.failedTasks.message")}:</b> {item.message}
        </Text>
        <Text size="sm">
          <b>{t("integration.failedTasks.occurrences")}:</b> {item.occurrences} ·{" "}
          <b>{t("integration.failedTasks.firstSeen")}:</b> {formatDateTime(item.created_date)} ·{" "}
          <b>{t("integration.failedTasks.lastSeen")}:</b> {formatDateTime(item.last_seen_date)}
        </Text>
        <Text size="sm" fw={600}>
          {t("integration.failedTasks.payload")}
        </Text>
        <Code block mah={360} style={{ overflow: "auto" }}>
          {JSON.stringify(item.payload, null, 2) ?? "-"}
        </Code>
        <Group justify="flex-end">
          <OpenTicketButton jobErrorReportId={item.id} subject={`${item.entityKey}: ${item.message}`} />
        </Group>
      </Stack>
    </Modal>
  );
}
