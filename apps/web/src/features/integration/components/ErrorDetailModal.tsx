import type { JobErrorReportDto } from "@ep/contracts";
import { Accordion, Code, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { OpenTicketButton } from "@/features/tickets/components/OpenTicketButton";
import { formatDateTime, formatDecimal, formatMoney, formatNumber } from "@/lib/format";
import { countPayloadFields, flattenPayload, isMoneyField, type PayloadField } from "../payload-fields";
import { useErrorTypeLabel } from "./ErrorTypeBadge";

const SHOWN_FIELDS = 60;

/**
 * A failed task's error and the payload it tried to move: the payload as a list of labelled
 * fields, its raw JSON folded away under 'Teknik ayrıntı' (with the error type's code).
 */
export function ErrorDetailModal({ item, onClose }: { item: JobErrorReportDto; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const typeLabel = useErrorTypeLabel();
  const fields = flattenPayload(item.payload, SHOWN_FIELDS);
  const hidden = countPayloadFields(item.payload) - fields.length;

  const segment = (s: string | number) => {
    if (typeof s === "number") return `${s + 1}.`;
    const key = `integration.payloadFields.${s}`;
    return i18n.exists(key) ? t(key as "integration.payloadFields.sku") : s;
  };
  const label = (f: PayloadField) => f.path.map(segment).join(" › ");
  const value = (f: PayloadField) => {
    if (f.value === null || f.value === "") return "-";
    if (typeof f.value === "boolean")
      return f.value ? t("integration.failedTasks.yes") : t("integration.failedTasks.no");
    // A price reads "89,50 ₺", never "89,5"; any other number the Turkish way.
    if (isMoneyField(f)) return formatMoney(f.value as number);
    if (typeof f.value === "number") return formatDecimal(f.value);
    return f.value;
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t("integration.failedTasks.detailTitle", { key: item.entityKey })}
      size="lg"
    >
      <Stack gap="sm" data-testid="error-detail">
        <Text size="sm">
          <b>{t("integration.failedTasks.errorType")}:</b> {typeLabel(item.errorType)}
        </Text>
        <Text size="sm">
          <b>{t("integration.failedTasks.message")}:</b> {item.message}
        </Text>
        <Text size="sm">
          <b>{t("integration.failedTasks.occurrences")}:</b> {formatNumber(item.occurrences)} ·{" "}
          <b>{t("integration.failedTasks.firstSeen")}:</b> {formatDateTime(item.created_date)} ·{" "}
          <b>{t("integration.failedTasks.lastSeen")}:</b> {formatDateTime(item.last_seen_date)}
        </Text>
        <Text size="sm" fw={600}>
          {t("integration.failedTasks.payload")}
        </Text>
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("integration.failedTasks.payloadEmpty")}
          </Text>
        ) : (
          <Table withTableBorder verticalSpacing={4} fz="sm" data-testid="payload-fields">
            <Table.Tbody>
              {fields.map((f) => (
                <Table.Tr key={f.path.join("/")}>
                  <Table.Th w="40%" fw={500} c="dimmed">
                    {label(f)}
                  </Table.Th>
                  <Table.Td style={{ wordBreak: "break-word" }}>{value(f)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {hidden > 0 && (
          <Text size="xs" c="dimmed">
            {t("integration.failedTasks.moreFields", { count: hidden })}
          </Text>
        )}
        <Accordion variant="contained" chevronPosition="left">
          <Accordion.Item value="technical">
            <Accordion.Control data-testid="technical-detail">
              {t("integration.failedTasks.technical")}
            </Accordion.Control>
            <Accordion.Panel>
              <Text size="xs" c="dimmed" mb={4}>
                {t("integration.failedTasks.errorType")}: <Code>{item.errorType}</Code>
              </Text>
              <Code block mah={300} style={{ overflow: "auto" }} data-testid="payload-raw">
                {JSON.stringify(item.payload, null, 2) ?? "-"}
              </Code>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
        <Group justify="flex-end">
          <OpenTicketButton
            jobErrorReportId={item.id}
            context={{
              job: t(`connections.jobTypes.${item.jobType}`),
              record: item.entityKey,
              reason: item.message,
            }}
          />
        </Group>
      </Stack>
    </Modal>
  );
}
