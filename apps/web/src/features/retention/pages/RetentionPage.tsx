import {
  RETENTION_KINDS,
  RETENTION_RULES,
  type RetentionSettings,
  type RetentionState,
  retentionSettingsSchema,
} from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, NumberInput, SimpleGrid, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { SectionCard } from "@/features/account/components/SectionCard";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors, fieldError } from "@/lib/form-errors";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useRetention, useSaveRetention } from "../api";

/** /settings/retention — how long runs, reports, failed tasks, notifications and activities are kept. */
export default function RetentionPage() {
  const { t } = useTranslation();
  const state = useRetention();
  return (
    <>
      <PageHeader
        title={t("retention.title")}
        description={t("retention.subtitle")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <QueryBoundary query={state} minHeight={240}>
        {(data) => (
          <Stack gap="lg">
            <SectionCard title={t("retention.section")}>
              <RetentionForm state={data} />
            </SectionCard>
            <SectionCard title={t("retention.last.section")}>
              <LastCleanUp state={data} />
            </SectionCard>
          </Stack>
        )}
      </QueryBoundary>
    </>
  );
}

function RetentionForm({ state }: { state: RetentionState }) {
  const { t } = useTranslation();
  const save = useSaveRetention();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<RetentionSettings>({
    resolver: zodResolver(retentionSettingsSchema),
    defaultValues: state.settings,
    mode: "onTouched",
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await save.mutateAsync(values);
      reset(result.data.settings);
      notifications.show({ color: "green", message: result.message });
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, RETENTION_KINDS)) {
        notifications.show({ color: "red", message: errorMessage(error) });
      }
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t("retention.intro")}</Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {RETENTION_KINDS.map((kind) => (
            <Controller
              key={kind}
              name={kind}
              control={control}
              render={({ field }) => (
                <NumberInput
                  label={t(`retention.kinds.${kind}.label`)}
                  description={`${t(`retention.kinds.${kind}.text`)} ${t("retention.bounds", {
                    min: formatNumber(RETENTION_RULES[kind].minDays),
                    max: formatNumber(RETENTION_RULES[kind].maxDays),
                    default: formatNumber(RETENTION_RULES[kind].defaultDays),
                  })}`}
                  suffix={` ${t("retention.days")}`}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  min={RETENTION_RULES[kind].minDays}
                  max={RETENTION_RULES[kind].maxDays}
                  value={field.value}
                  onChange={(v) => field.onChange(typeof v === "number" ? v : Number.NaN)}
                  onBlur={field.onBlur}
                  error={fieldError(errors[kind])}
                />
              )}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => reset(state.defaults, { keepDefaultValues: true })}>
            {t("retention.useDefaults")}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!isDirty}>
            {t("retention.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LastCleanUp({ state }: { state: RetentionState }) {
  const { t } = useTranslation();
  if (!state.lastRun_Date || !state.lastRemoved) {
    return <Text size="sm">{t("retention.last.never")}</Text>;
  }
  const removed = RETENTION_KINDS.filter((kind) => (state.lastRemoved?.[kind] ?? 0) > 0);
  return (
    <Stack gap="xs">
      <Text size="sm">{t("retention.last.when", { date: formatDateTime(state.lastRun_Date) })}</Text>
      {removed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("retention.last.nothing")}
        </Text>
      ) : (
        removed.map((kind) => (
          <Text size="sm" key={kind}>
            {t(`retention.kinds.${kind}.label`)}: {formatNumber(state.lastRemoved?.[kind] ?? 0)}
          </Text>
        ))
      )}
    </Stack>
  );
}
