import { Group, TextInput } from "@mantine/core";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";

/** A day range as `YYYY-MM-DD` strings; null = open. */
export type DayRange = [string | null, string | null];

/** The range as the API's startDate/endDate: local midnight of the first day to that of the day after the last. */
export function rangeQuery([from, to]: DayRange): { startDate?: string; endDate?: string } {
  return {
    ...(from ? { startDate: dayjs(from).startOf("day").toISOString() } : {}),
    ...(to ? { endDate: dayjs(to).add(1, "day").startOf("day").toISOString() } : {}),
  };
}

/** Two labelled native date inputs (keyboard friendly, no extra bundle). */
export function DateRangeFilter({ value, onChange }: { value: DayRange; onChange: (r: DayRange) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end">
      <TextInput
        type="date"
        label={t("reports.startDate")}
        value={value[0] ?? ""}
        max={value[1] ?? undefined}
        onChange={(e) => onChange([e.currentTarget.value || null, value[1]])}
        w={170}
      />
      <TextInput
        type="date"
        label={t("reports.endDate")}
        value={value[1] ?? ""}
        min={value[0] ?? undefined}
        onChange={(e) => onChange([value[0], e.currentTarget.value || null])}
        w={170}
      />
    </Group>
  );
}
