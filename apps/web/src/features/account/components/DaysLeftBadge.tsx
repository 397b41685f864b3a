import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Days left on a licence: red when expired or within a week, orange within a month, else green. */
export function DaysLeftBadge({ days }: { days: number }) {
  const { t } = useTranslation();
  if (days <= 0) {
    return (
      <Badge color="red" variant="light">
        {t("licence.expired")}
      </Badge>
    );
  }
  const color = days <= 7 ? "red" : days <= 30 ? "orange" : "green";
  return (
    <Badge color={color} variant="light">
      {t("licence.daysLeftValue", { count: days })}
    </Badge>
  );
}
