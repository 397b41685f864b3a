import { NumberInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { intervalMinutes, MAX_INTERVAL_MINUTES, MIN_INTERVAL_MINUTES } from "../schedule";

type Props = {
  label: string;
  value: number | string;
  onChange: (v: number | string) => void;
  description?: string;
};

/**
 * A job's "every N minutes": what is typed stays as typed (no silent clamping of 0 to a minute or
 * 99999 to a week) and an out-of-range or fractional value says so in Turkish.
 */
export function IntervalInput({ label, value, onChange, description }: Props) {
  const { t } = useTranslation();
  return (
    <NumberInput
      label={label}
      min={MIN_INTERVAL_MINUTES}
      max={MAX_INTERVAL_MINUTES}
      allowDecimal={false}
      clampBehavior="none"
      value={value}
      onChange={onChange}
      error={intervalMinutes(value) === null ? t("integration.schedule.minutesRange") : undefined}
      description={description}
    />
  );
}
