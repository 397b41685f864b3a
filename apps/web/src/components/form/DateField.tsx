import "@mantine/dates/styles.css";
import { DatePickerInput, type DatePickerInputProps } from "@mantine/dates";
import { IconCalendar } from "@tabler/icons-react";
import "dayjs/locale/tr";
import { useTranslation } from "react-i18next";

/**
 * The panel's one date field: Mantine's picker in Turkish (DD-MM-YYYY as every date on screen,
 * Monday first), never the browser's native field that shows mm/dd/yyyy in a non-Turkish browser.
 * The value is a `YYYY-MM-DD` string or null.
 */
export function DateField(props: DatePickerInputProps<"default">) {
  const { t } = useTranslation();
  return (
    <DatePickerInput
      locale="tr"
      valueFormat="DD-MM-YYYY"
      firstDayOfWeek={1}
      clearable
      clearButtonProps={{ "aria-label": t("common.clearDate") }}
      leftSection={<IconCalendar size={16} aria-hidden />}
      w={170}
      popoverProps={{ withinPortal: true }}
      {...props}
    />
  );
}
