import { Badge, Card, Code, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useCheckDifferences } from "../check-api";

/**
 * /support/connection-checks — what merchants' connection checks found different from our judges,
 * grouped by system, read and rule, with the answer's shape (no values), first and last seen and how
 * many companies; two or more is a vendor change or our judge's mistake: its VERIFIED.md entry is named.
 */
export default function SupportConnectionChecksPage() {
  const { t } = useTranslation();
  const groups = useCheckDifferences();
  return (
    <Stack gap="md">
      <Title order={1} fz={20}>
        {t("support.connectionChecks.title")}
      </Title>
      <Text size="sm" c="dimmed">
        {t("support.connectionChecks.text")}
      </Text>
      <QueryBoundary
        query={groups}
        isEmpty={(d) => d.length === 0}
        emptyMessage={t("support.connectionChecks.empty")}
      >
        {(rows) => (
          <Card p={0}>
            <ResponsiveTable striped aria-label={t("support.connectionChecks.title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("support.connectionChecks.system")}</Table.Th>
                  <Table.Th>{t("support.connectionChecks.operation")}</Table.Th>
                  <Table.Th>{t("support.connectionChecks.rule")}</Table.Th>
                  <Table.Th>{t("support.connectionChecks.sample")}</Table.Th>
                  <Table.Th>{t("support.connectionChecks.seen")}</Table.Th>
                  <Table.Th>{t("support.connectionChecks.companies")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((g) => (
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
                ))}
              </Table.Tbody>
            </ResponsiveTable>
          </Card>
        )}
      </QueryBoundary>
    </Stack>
  );
}
