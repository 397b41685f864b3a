import type { CheckOperationView, ConnectionCheckSide } from "@ep/contracts";
import { Alert, Badge, Button, Card, Group, List, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconShieldCheck } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DataTable } from "@/components/table/DataTable";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useConnectionCheck, useProceedFirstSync, useRunConnectionCheck } from "../check-api";

const COLOR: Record<CheckOperationView["status"], string> = { ok: "green", drift: "red", untried: "gray" };

function SideTable({ side }: { side: ConnectionCheckSide }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid={`connection-check-${side.connectionType}`}>
      <Group gap="xs">
        <Text fw={600}>{side.system}</Text>
        <Text size="xs" c="dimmed">
          {t("connections.check.checkedAt", {
            date: formatDateTime(side.checkedAt),
            calls: formatNumber(side.calls),
            planned: formatNumber(side.plannedCalls),
          })}
        </Text>
      </Group>
      <DataTable
        aria-label={t("connections.check.tableLabel", { system: side.system })}
        columns={[
          t("connections.check.operation"),
          t("connections.check.status"),
          t("connections.check.detail"),
        ]}
      >
        {side.operations.map((op) => (
          <Table.Tr key={op.operation} data-testid="check-operation" data-operation={op.operation}>
            <Table.Td>{op.label}</Table.Td>
            <Table.Td>
              <Badge color={COLOR[op.status]} variant="light">
                {op.statusText}
              </Badge>
            </Table.Td>
            <Table.Td>
              {op.messages.length > 0 ? (
                <List size="sm" spacing={2}>
                  {op.messages.map((m) => (
                    <List.Item key={m}>{m}</List.Item>
                  ))}
                </List>
              ) : (
                <Text size="sm" c="dimmed">
                  {op.jobs.join(", ")}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Stack>
  );
}

/**
 * The connection check (issue 36): per read the jobs need, "uyumlu", "uyumsuz" (what differed and what
 * will not work) or "denenemedi" (why); "Bağlantıyı doğrula" runs it now, "Yine de devam et" lets a
 * held first sync start.
 */
export function ConnectionCheckCard() {
  const { t } = useTranslation();
  const check = useConnectionCheck();
  const run = useRunConnectionCheck();
  const proceed = useProceedFirstSync();
  const act = async (call: () => Promise<{ message: string }>) => {
    try {
      notifications.show({ color: "green", message: (await call()).message });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  return (
    <Card data-testid="connection-check">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} fz={16}>
              {t("connections.check.title")}
            </Title>
            <Text size="sm" c="dimmed">
              {t("connections.check.subtitle")}
            </Text>
          </div>
          <Button
            leftSection={<IconShieldCheck size={18} aria-hidden />}
            loading={run.isPending}
            onClick={() => act(() => run.mutateAsync(undefined))}
          >
            {t("connections.check.verify")}
          </Button>
        </Group>
        <QueryBoundary query={check} minHeight={80}>
          {(data) => (
            <Stack gap="md">
              {data.firstSyncHeld && (
                <Alert color="orange" title={t("connections.check.heldTitle")} data-testid="first-sync-held">
                  <Stack gap="xs" align="flex-start">
                    <Text size="sm">{t("connections.check.held")}</Text>
                    <Button
                      variant="light"
                      color="orange"
                      loading={proceed.isPending}
                      onClick={() => act(() => proceed.mutateAsync())}
                    >
                      {t("connections.check.proceed")}
                    </Button>
                  </Stack>
                </Alert>
              )}
              {!data.erp && !data.ecommerce && (
                <Text size="sm" c="dimmed">
                  {t("connections.check.never")}
                </Text>
              )}
              {data.erp && <SideTable side={data.erp} />}
              {data.ecommerce && <SideTable side={data.ecommerce} />}
            </Stack>
          )}
        </QueryBoundary>
      </Stack>
    </Card>
  );
}
