import type { JobScheduleDto } from "@ep/contracts";
import type { TFunction } from "i18next";

/** A schedule in words: 'Her 15 dakikada bir' or the cron expression. */
export function describeSchedule(schedule: JobScheduleDto, t: TFunction): string {
  if (schedule.kind === "interval") {
    return schedule.minutes % 60 === 0
      ? t("integration.schedule.everyHours", { count: schedule.minutes / 60 })
      : t("integration.schedule.everyMinutes", { count: schedule.minutes });
  }
  return t("integration.schedule.cron", { expression: schedule.expression });
}
