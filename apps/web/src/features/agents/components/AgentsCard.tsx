import { Alert, Badge, Button, Card, Code, Group, List, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconPlugConnected } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useAgents, useIssuePairingCode, useRevokeAgent } from "../api";

/**
 * "Yerel Bağlantı Aracı" on /settings/api-keys: pairing code with the install steps, the company's agents
 * (online/offline, last seen, version, machine, round trip) with re-pair and revoke.
 */
export function AgentsCard() {
  const { t } = useTranslation();
  const agents = useAgents();
  const issue = useIssuePairingCode();
  const revoke = useRevokeAgent();
  const [pairing, setPairing] = useState<{ code: string; expiresAt: string } | null>(null);
  const server = window.location.origin;

  const onIssue = async () => {
    try {
      const { data } = await issue.mutateAsync();
      setPairing(data);
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  const onRevoke = async (id: number) => {
    if (!window.confirm(t("agents.card.revokeConfirm"))) return;
    try {
      const { message } = await revoke.mutateAsync(id);
      notifications.show({ color: "green", message });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };

  return (
    <Card withBorder padding="lg" data-testid="agents-card">
      <Stack gap="md">
        <Group justify="space-between">
          <Group gap="xs">
            <IconPlugConnected size={20} aria-hidden />
            <Title order={3}>{t("agents.card.title")}</Title>
          </Group>
          <Button onClick={onIssue} loading={issue.isPending}>
            {t("agents.card.issueCode")}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t("agents.card.explain")}
        </Text>
        {pairing && (
          <Alert title={t("agents.card.codeTitle")} color="blue" variant="light">
            <Stack gap="xs">
              <Text size="sm">{t("agents.card.codeValid", { time: formatDateTime(pairing.expiresAt) })}</Text>
              <Code fz="lg" data-testid="pairing-code">
                {pairing.code}
              </Code>
              <List type="ordered" size="sm" spacing="xs">
                <List.Item>{t("agents.card.stepInstallNode")}</List.Item>
                <List.Item>
                  {t("agents.card.stepWindows")}
                  <Code block>
                    {`powershell -ExecutionPolicy Bypass -File apps\\agent\\install\\install-windows.ps1 -Code ${pairing.code} -Server ${server}`}
                  </Code>
                </List.Item>
                <List.Item>
                  {t("agents.card.stepLinux")}
                  <Code block>{`sudo sh apps/agent/install/install-linux.sh ${pairing.code} ${server}`}</Code>
                </List.Item>
                <List.Item>
                  {t("agents.card.stepManual")}
                  <Code block>{`entegrasyon-agent pair ${pairing.code} --server ${server}`}</Code>
                </List.Item>
              </List>
            </Stack>
          </Alert>
        )}
        <QueryBoundary query={agents} minHeight={80}>
          {(list) =>
            list.length === 0 ? (
              <Text size="sm">{t("agents.card.none")}</Text>
            ) : (
              <ResponsiveTable striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("agents.card.machine")}</Table.Th>
                    <Table.Th>{t("agents.card.status")}</Table.Th>
                    <Table.Th>{t("agents.card.lastSeen")}</Table.Th>
                    <Table.Th>{t("agents.card.version")}</Table.Th>
                    <Table.Th>{t("agents.card.roundTrip")}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>{a.machineName || `#${a.id}`}</Table.Td>
                      <Table.Td>
                        <Badge
                          color={a.online ? "green" : "red"}
                          variant="light"
                          title={a.statusText ?? undefined}
                        >
                          {a.online ? t("agents.card.online") : t("agents.card.offline")}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{formatDateTime(a.lastSeenAt)}</Table.Td>
                      <Table.Td>{a.version || "-"}</Table.Td>
                      <Table.Td>{a.roundTripMs === null ? "-" : `${a.roundTripMs} ms`}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end">
                          <Button size="xs" variant="light" onClick={onIssue}>
                            {t("agents.card.repair")}
                          </Button>
                          <Button size="xs" color="red" variant="light" onClick={() => onRevoke(a.id)}>
                            {t("agents.card.revoke")}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </ResponsiveTable>
            )
          }
        </QueryBoundary>
      </Stack>
    </Card>
  );
}
