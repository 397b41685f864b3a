import type { JobDto, JobScheduleDto } from "@ep/contracts";
import { Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { useUpdateJob } from "../api";
import { describeSchedule, intervalMinutes, MIN_INTERVAL_MINUTES } from "../schedule";
import { IntervalInput } from "./IntervalInput";

/** Edits a job's schedule: every N minutes, or a cron expression (Europe/Istanbul). */
export function ScheduleModal({ job, onClose }: { job: JobDto; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateJob();
  const [kind, setKind] = useState<JobScheduleDto["kind"]>(job.schedule.kind);
  const [minutesText, setMinutesText] = useState<number | string>(
    job.schedule.kind === "interval" ? job.schedule.minutes : 60,
  );
  const minutes = intervalMinutes(minutesText);
  const [expression, setExpression] = useState(
    job.schedule.kind === "cron" ? job.schedule.expression : "0 */2 * * *",
  );
  const invalid = kind === "interval" && minutes === null;
  const schedule: JobScheduleDto =
    kind === "interval" ? { kind, minutes: minutes ?? MIN_INTERVAL_MINUTES } : { kind, expression };
  const fieldError = update.error instanceof ApiError ? update.error.fieldErrors[0]?.message : undefined;
  return (
    <Modal opened onClose={onClose} title={t("integration.schedule.title", { job: job.name })}>
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as JobScheduleDto["kind"])}
          data={[
            { value: "interval", label: t("integration.schedule.interval") },
            { value: "cron", label: t("integration.schedule.cronLabel") },
          ]}
        />
        {kind === "interval" ? (
          <IntervalInput
            label={t("integration.schedule.minutes")}
            value={minutesText}
            onChange={setMinutesText}
            description={minutes !== null ? describeSchedule(schedule, t, i18n.language) : undefined}
          />
        ) : (
          <TextInput
            label={t("integration.schedule.expression")}
            value={expression}
            onChange={(e) => setExpression(e.currentTarget.value)}
            error={fieldError}
            description={`${t("integration.schedule.cronHint")} · ${describeSchedule(schedule, t, i18n.language)}`}
          />
        )}
        {update.isError && !fieldError && (
          <Text size="sm" c="red" role="alert">
            {errorMessage(update.error)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("integration.cancel")}
          </Button>
          <Button
            disabled={invalid}
            loading={update.isPending}
            onClick={() => update.mutate({ id: job.id, schedule }, { onSuccess: onClose })}
          >
            {t("integration.save")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
