import type { RunStatusDto } from "@ep/contracts";
import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";

const COLORS: Record<RunStatusDto, string> = {
  Queued: "gray",
  Running: "blue",
  Succeeded: "green",
  PartiallyFailed: "orange",
  Failed: "red",
  Crashed: "red",
};

/** A run's status as a coloured badge with its Turkish name (colour is never the only signal). */
export function RunStatusBadge({ status }: { status: RunStatusDto }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="run-status">
      {t(`integration.status.${status}`)}
    </Badge>
  );
}
