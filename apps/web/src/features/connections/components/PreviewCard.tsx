import type { RunPreview } from "@ep/contracts";
import { Alert, Button, Checkbox, Group, Stack, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle, IconEye, IconPlayerPlay } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "@/components/table/DataTable";
import { SectionCard } from "@/features/account/components/SectionCard";
import { errorMessage } from "@/lib/errors";
import { formatMoney } from "@/lib/format";
import { usePreviewRun, useRunJob } from "../api";

/**
 * What the next price or stock run would change (first 50 rows and totals), and the run itself:
 * when the preview crosses a guard rail, running needs an explicit confirmation.
 */
export function PreviewCard({ jobType, jobId }: { jobType: RunPreview["jobType"]; jobId: number | null }) {
  const { t } = useTranslation();
  const preview = usePreviewRun();
  const run = useRunJob();
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const data = preview.data;
  const show = (v: number | null) =>
    v === null ? "-" : jobType === "PriceIntegration" ? formatMoney(v) : String(v);

  const onPreview = () => {
    setError(null);
    setConfirmed(false);
    preview.mutate(jobType, { onError: (e) => setError(errorMessage(e)) });
  };
  const onRun = async () => {
    if (jobId === null) return;
    setError(null);
    try {
      await run.mutateAsync(jobId);
      notifications.show({ color: "green", message: t("connections.preview.started") });
      preview.reset();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <SectionCard title={t("connections.preview.title")}>
      <Stack gap="md">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t("connections.preview.hint")}
          </Text>
          <Button
            variant="light"
            leftSection={<IconEye size={16} />}
            onClick={onPreview}
            loading={preview.isPending}
          >
            {t("connections.preview.button")}
          </Button>
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {data && (
          <>
            <Alert
              role="status"
              data-testid="run-preview"
              color={data.tripped ? "orange" : "blue"}
              variant="light"
              icon={data.tripped ? <IconAlertTriangle size={18} /> : undefined}
            >
              {data.message}
            </Alert>
            {data.rows.length > 0 && (
              <DataTable
                withTableBorder
                striped
                columns={[
                  t("connections.preview.sku"),
                  t("connections.preview.location"),
                  { label: t("connections.preview.before"), align: "right" },
                  { label: t("connections.preview.after"), align: "right" },
                ]}
              >
                {data.rows.map((r) => (
                  <Table.Tr key={`${r.sku}@${r.location ?? ""}`}>
                    <Table.Td>{r.sku}</Table.Td>
                    <Table.Td>{r.location ?? "-"}</Table.Td>
                    <Table.Td ta="right">{show(r.before)}</Table.Td>
                    <Table.Td ta="right">{show(r.after)}</Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
            )}
            {data.total > data.rows.length && (
              <Text size="sm" c="dimmed">
                {t("connections.preview.more", { shown: data.rows.length, total: data.total })}
              </Text>
            )}
            {data.tripped && (
              <Checkbox
                label={t("connections.preview.confirm")}
                checked={confirmed}
                onChange={(e) => setConfirmed(e.currentTarget.checked)}
              />
            )}
            <Group justify="flex-end">
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                onClick={onRun}
                loading={run.isPending}
                disabled={jobId === null || data.total === 0 || (data.tripped && !confirmed)}
              >
                {t("connections.preview.run")}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </SectionCard>
  );
}
