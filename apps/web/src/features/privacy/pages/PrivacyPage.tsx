import { DELETION_GRACE_DAYS, type DeletionStatus, deletionRequestSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Checkbox, Grid, Group, List, Modal, PasswordInput, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertCircle, IconAlertTriangle, IconDownload, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { SectionCard } from "@/features/account/components/SectionCard";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors, fieldError } from "@/lib/form-errors";
import { formatDate } from "@/lib/format";
import { downloadExport, useCancelDeletion, useDeletionStatus, useRequestDeletion } from "../api";

const DAY_MS = 86_400_000;

/** /settings/privacy — KVKK: the company's data export and its account deletion request. */
export default function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t("privacy.title")}
        description={t("privacy.subtitle")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <SectionCard title={t("privacy.export.section")}>
            <ExportSection />
          </SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <SectionCard title={t("privacy.deletion.section")}>
            <DeletionSection />
          </SectionCard>
        </Grid.Col>
      </Grid>
    </>
  );
}

function ExportSection() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<"json" | "xlsx" | null>(null);
  const download = async (format: "json" | "xlsx") => {
    setBusy(format);
    try {
      await downloadExport(format);
      notifications.show({ color: "green", message: t("privacy.export.started") });
    } catch {
      notifications.show({ color: "red", message: t("privacy.export.failed") });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="md">
      <Text size="sm">{t("privacy.export.text")}</Text>
      <Group gap="sm">
        {(["json", "xlsx"] as const).map((format) => (
          <Button
            key={format}
            variant="light"
            leftSection={<IconDownload size={16} />}
            loading={busy === format}
            disabled={busy !== null && busy !== format}
            onClick={() => void download(format)}
          >
            {t(`privacy.export.${format}`)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

function DeletionSection() {
  const { t } = useTranslation();
  const status = useDeletionStatus();
  const [confirming, setConfirming] = useState(false);
  return (
    <QueryBoundary query={status} minHeight={160}>
      {({ request, graceDays }) =>
        request?.status === "pending" ? (
          <PendingDeletion request={request} />
        ) : (
          <Stack gap="md">
            <Text size="sm">{t("privacy.deletion.text", { days: graceDays })}</Text>
            {request?.status === "cancelled" && (
              <Text size="sm" c="dimmed">
                {t("privacy.deletion.cancelled", { date: formatDate(request.cancelled_Date) })}
              </Text>
            )}
            <Group>
              <Button
                color="red"
                variant="outline"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirming(true)}
              >
                {t("privacy.deletion.request")}
              </Button>
            </Group>
            <ConfirmDeletionModal
              opened={confirming}
              onClose={() => setConfirming(false)}
              graceDays={graceDays}
            />
          </Stack>
        )
      }
    </QueryBoundary>
  );
}

function PendingDeletion({ request }: { request: DeletionStatus }) {
  const { t } = useTranslation();
  const cancel = useCancelDeletion();
  const daysLeft = Math.max(0, Math.ceil((Date.parse(request.due_Date) - Date.now()) / DAY_MS));
  const onCancel = async () => {
    try {
      const result = await cancel.mutateAsync(request.id);
      notifications.show({ color: "green", message: result.message });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  return (
    <Stack gap="md">
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={t("privacy.deletion.pendingTitle")}
        role="status"
      >
        {t("privacy.deletion.pending", { date: formatDate(request.due_Date), days: daysLeft })}
      </Alert>
      <Group>
        <Button onClick={() => void onCancel()} loading={cancel.isPending}>
          {t("privacy.deletion.cancel")}
        </Button>
      </Group>
    </Stack>
  );
}

type Values = z.input<typeof deletionRequestSchema>;

function ConfirmDeletionModal({
  opened,
  onClose,
  graceDays,
}: {
  opened: boolean;
  onClose: () => void;
  graceDays: number;
}) {
  const { t } = useTranslation();
  const send = useRequestDeletion();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(deletionRequestSchema),
    defaultValues: { password: "", confirm: false as unknown as true },
  });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await send.mutateAsync(values);
      notifications.show({ color: "green", message: result.message, autoClose: 10_000 });
      close();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["password", "confirm"]))
        setFormError(errorMessage(error));
    }
  });
  const dueDate = formatDate(Date.now() + (graceDays || DELETION_GRACE_DAYS) * DAY_MS);
  return (
    <Modal opened={opened} onClose={close} title={t("privacy.confirm.title")} centered>
      <form onSubmit={onSubmit} noValidate aria-label={t("privacy.confirm.title")}>
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          )}
          <Text size="sm">{t("privacy.confirm.intro")}</Text>
          <List size="sm" spacing={4}>
            <List.Item>{t("privacy.confirm.point1", { date: dueDate })}</List.Item>
            <List.Item>{t("privacy.confirm.point2")}</List.Item>
            <List.Item>{t("privacy.confirm.point3")}</List.Item>
          </List>
          <Checkbox
            label={t("privacy.confirm.checkbox", { days: graceDays })}
            error={fieldError(errors.confirm)}
            {...register("confirm")}
          />
          <PasswordInput
            label={t("privacy.confirm.password")}
            autoComplete="current-password"
            withAsterisk
            error={fieldError(errors.password)}
            {...register("password")}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t("privacy.confirm.back")}
            </Button>
            <Button type="submit" color="red" loading={isSubmitting}>
              {t("privacy.confirm.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
