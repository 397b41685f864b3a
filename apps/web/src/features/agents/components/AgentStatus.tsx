import type { AgentView } from "@ep/contracts";
import { Badge, Group, Select, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/format";
import { useAgents } from "../api";

/**
 * The on-site agent a connection goes through: online/offline, last seen, version, machine and round
 * trip. Fed by the one agents query (shared with the agents card, refetched every 15 s): no polling of its own.
 */
export function AgentStatusLine({ agentId, testId }: { agentId: number; testId?: string }) {
  const { t } = useTranslation();
  const agents = useAgents();
  const agent = agents.data?.find((a) => a.id === agentId);
  if (!agents.data) return null;
  if (!agent) {
    return (
      <Text size="xs" c="red" data-testid={testId}>
        {t("agents.status.missing")}
      </Text>
    );
  }
  return (
    <Stack gap={2} data-testid={testId} data-online={agent.online}>
      <Group gap="xs">
        <Text size="xs" fw={600}>
          {t("agents.status.title")}
        </Text>
        <Badge color={agent.online ? "green" : "red"} variant="light" size="sm">
          {agent.online ? t("agents.card.online") : t("agents.card.offline")}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {t("agents.status.details", {
          machine: agent.machineName || `#${agent.id}`,
          version: agent.version || "-",
          lastSeen: agent.lastSeenAt ? formatDateTime(agent.lastSeenAt) : "-",
          roundTrip: agent.roundTripMs === null ? "-" : `${agent.roundTripMs} ms`,
        })}
      </Text>
      {!agent.online && agent.statusText && (
        <Text size="xs" c="red">
          {agent.statusText}
        </Text>
      )}
    </Stack>
  );
}

const DIRECT = "direct";

/**
 * "Bağlantı yolu" on an ERP connection's form: directly from our server, or through one of the company's
 * paired agents (for an ERP reachable only inside the company network). The connection test goes the same way.
 */
export function AgentPicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (agentId: number | null) => void;
}) {
  const { t } = useTranslation();
  const agents = useAgents();
  const list: AgentView[] = agents.data ?? [];
  const label = (a: AgentView) =>
    t("agents.picker.agent", {
      machine: a.machineName || `#${a.id}`,
      state: a.online ? t("agents.card.online") : t("agents.card.offline"),
    });
  return (
    <Select
      label={t("agents.picker.label")}
      description={t(list.length > 0 ? "agents.picker.help" : "agents.picker.noAgents")}
      data={[
        { value: DIRECT, label: t("agents.picker.direct") },
        ...list.map((a) => ({ value: String(a.id), label: label(a) })),
      ]}
      value={value === null ? DIRECT : String(value)}
      onChange={(v) => onChange(!v || v === DIRECT ? null : Number(v))}
      allowDeselect={false}
      data-testid="agent-picker"
    />
  );
}
