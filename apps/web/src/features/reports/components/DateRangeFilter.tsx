import { Group } from "@mantine/core";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "@/components/form/DateField";

/** A day range as `YYYY-MM-DD` strings; null = open. */
export type DayRange = [string | null, string | null];

/** The range as the API's startDate/endDate: local midnight of the first day to that of the day after the last. */
export function rangeQuery([from, to]: DayRange): { startDate?: string; endDate?: string } {
  return {
    ...(from ? { startDate: dayjs(from).startOf("day").toISOString() } : {}),
    ...(to ? { endDate: dayjs(to).add(1, "day").startOf("day").toISOString() } : {}),
  };
}

/** True when both ends are set and the first day comes after the last. */
export function isReversed([from, to]: DayRange): boolean {
  return from !== null && to !== null && from > to;
}

/**
 * Two Turkish date pickers (DD-MM-YYYY, Monday first). A reversed range is refused
 * with a message on the field and never reaches the page: it keeps showing the last valid range.
 */
export function DateRangeFilter({ value, onChange }: { value: DayRange; onChange: (r: DayRange) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<DayRange>(value);
  const reversed = isReversed(draft);
  const change = (next: DayRange) => {
    setDraft(next);
    if (!isReversed(next)) onChange(next);
  };
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <DateField
        label={t("reports.startDate")}
        placeholder={t("reports.pickDate")}
        value={draft[0]}
        onChange={(d) => change([d, draft[1]])}
        error={reversed ? t("reports.rangeReversed") : undefined}
      />
      <DateField
        label={t("reports.endDate")}
        placeholder={t("reports.pickDate")}
        value={draft[1]}
        onChange={(d) => change([draft[0], d])}
        error={reversed ? true : undefined}
      />
    </Group>
  );
}
