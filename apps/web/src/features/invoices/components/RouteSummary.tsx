import { Alert, Button, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatNumber } from "@/lib/format";
import { useInvoiceSummary } from "../api";

/**
 * Who issues the company's invoices and how many the range holds: the same count as the Reports page's
 * invoice job row (one definition on the server, invoices/count.ts).
 */
export function RouteSummary({ from, to }: { from?: string; to?: string }) {
  const { t } = useTranslation("shared");
  const summary = useInvoiceSummary({ from, to });
  const data = summary.data;
  if (!data) return null;
  return (
    <Alert
      color={data.route === "erp" ? "gray" : "blue"}
      variant="light"
      data-testid="invoice-route"
      data-route={data.route}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Text size="sm">{t(`einvoices.route_${data.route}`)}</Text>
          <Text size="sm" fw={600} data-testid="invoice-count">
            {t("einvoices.count", { total: formatNumber(data.total) })}{" "}
            {data.service > 0 && data.erp > 0 && t("einvoices.countSplit", data)}
          </Text>
        </div>
        {data.route === "erp" && (
          <Button
            size="xs"
            variant="light"
            component={Link}
            to="/settings/api-keys#connection-einvoice"
            data-testid="invoice-add-service"
          >
            {t("einvoices.addService")}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
