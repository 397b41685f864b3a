import type { ConnectionType } from "@ep/contracts";
import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDecimal } from "@/lib/format";
import { useConnectionUsage } from "../api";

/** Share of a quota left under which the line turns orange (the server warns at 80 % used). */
const LOW = 0.2;

/**
 * This month's billable calls of a metered connection: "Bu ay: N çağrı (kontör)" for a system that
 * bills every call (DİA), "Kalan kota: okuma X / yazma Y" for one with a monthly quota (Logo İşbaşı).
 */
export function ConnectionUsageLine({ connectionType }: { connectionType: ConnectionType }) {
  const { t } = useTranslation();
  const { data } = useConnectionUsage();
  const usage = data?.find((u) => u.connectionType === connectionType);
  if (!usage) return null;
  const fmt = (n: number, digits = 0) => formatDecimal(n, digits);
  if (usage.kind === "credit") {
    return (
      <Text size="sm" data-testid={`connection-usage-${connectionType}`}>
        {t("connections.apiKeys.usageCredit", {
          calls: fmt(usage.used.read + usage.used.write),
          credits: fmt(usage.credits ?? 0, 4),
        })}
      </Text>
    );
  }
  const low =
    !!usage.quota &&
    !!usage.remaining &&
    (usage.remaining.read < usage.quota.read * LOW || usage.remaining.write < usage.quota.write * LOW);
  return (
    <div data-testid={`connection-usage-${connectionType}`}>
      <Text size="sm" c={low ? "orange.8" : undefined}>
        {t("connections.apiKeys.usageQuota", {
          read: fmt(usage.remaining?.read ?? 0),
          write: fmt(usage.remaining?.write ?? 0),
        })}
      </Text>
      {low && (
        <Text size="xs" c="orange.8">
          {t("connections.apiKeys.usageLow")}
        </Text>
      )}
    </div>
  );
}
