import { Badge, Code, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useCheckDifferences } from "../check-api";
import { SupportListPage } from "../components/SupportListPage";

/**
 * /support/connection-checks — what merchants' connection checks found different from our judges,
 * grouped by system, read and rule, with the answer's shape (no values), first and last seen and how
 * many companies; two or more is a vendor change or our judge's mistake: its VERIFIED.md entry is named.
 */
export default function SupportConnectionChecksPage() {
  const { t } = useTranslation();
  const groups = useCheckDifferences();
  return (
    <SupportListPage
      section="connectionChecks"
      query={groups}
      columns={[
        t("support.connectionChecks.system"),
        t("support.connectionChecks.operation"),
        t("support.connectionChecks.rule"),
        t("support.connectionChecks.sample"),
        t("support.connectionChecks.seen"),
        t("support.connectionChecks.companies"),
      ]}
    >
      {(rows) =>
        rows.map((g) => (
          <Table.Tr key={g.id} data-testid="check-difference" data-system={g.system}>
            <Table.Td>{g.system}</Table.Td>
            <Table.Td>{g.operation}</Table.Td>
            <Table.Td>
              <Code>{g.rule}</Code>
              <Text size="xs" c="dimmed">
                {g.detail}
              </Text>
              <Text size="xs">
                {t("support.connectionChecks.verified")} <Code>{`${g.verified} · ${g.rule}`}</Code>
              </Text>
            </Table.Td>
            <Table.Td>
              <Code block fz="xs" mah={160} style={{ overflow: "auto" }}>
                {JSON.stringify(g.sample, null, 1)}
              </Code>
            </Table.Td>
            <Table.Td>
              <Text size="xs">
                {t("support.connectionChecks.firstSeen", { date: formatDateTime(g.firstSeen) })}
              </Text>
              <Text size="xs">
                {t("support.connectionChecks.lastSeen", { date: formatDateTime(g.lastSeen) })}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={g.notified ? "red" : "gray"} variant="light">
                {formatNumber(g.companies)}
              </Badge>
              {g.notified && (
                <Text size="xs" c="red.8">
                  {t("support.connectionChecks.notified")}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))
      }
    </SupportListPage>
  );
}
