import type { AgentView } from "@ep/contracts";
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  List,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconDownload, IconPlugConnected } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DataTable } from "@/components/table/DataTable";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatDecimal } from "@/lib/format";
import { HASH_TARGET } from "@/lib/scroll-to-hash";
import {
  type AgentReleaseDto,
  useAgentDownloads,
  useAgents,
  useDownloadAgent,
  useIssuePairingCode,
  useRevokeAgent,
  useSetUpdateWindow,
} from "../api";
import { AgentServes } from "./AgentServes";

const fileOf = (release: AgentReleaseDto | null | undefined, platform: "windows" | "linux") =>
  release?.files.find((f) => f.platform === platform);

/**
 * The executables to download (version, size and SHA-256 shown), or the server's sentence saying they are
 * not built yet.
 */
function AgentDownloads() {
  const { t } = useTranslation();
  const downloads = useAgentDownloads();
  const download = useDownloadAgent();
  const release = downloads.data?.data;
  const onDownload = async (file: AgentReleaseDto["files"][number]) => {
    try {
      await download.mutateAsync(file);
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  if (downloads.isPending) return null;
  if (!release)
    return (
      <Alert color="yellow" variant="light" data-testid="agent-downloads-missing">
        {downloads.data?.message ?? (downloads.error ? errorMessage(downloads.error) : "")}
      </Alert>
    );
  return (
    <Stack gap={4} data-testid="agent-downloads">
      <Group gap="xs">
        {(["windows", "linux"] as const).map((platform) => {
          const file = fileOf(release, platform);
          return (
            file && (
              <Button
                key={platform}
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={download.isPending && download.variables?.platform === platform}
                onClick={() => onDownload(file)}
              >
                {t(`agents.card.download.${platform}`)}
              </Button>
            )
          );
        })}
      </Group>
      {release.files.map((f) => (
        <Text key={f.platform} size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
          {t("agents.card.download.details", {
            file: f.fileName,
            version: release.version,
            size: formatDecimal(f.size / 1048576, 1),
            sha256: f.sha256,
          })}
        </Text>
      ))}
    </Stack>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({
  value: String(h),
  label: `${String(h).padStart(2, "0")}:00`,
}));

/** The hours an agent may update itself in (from – to, the agent's clock), saved as soon as one changes. */
function UpdateWindow({ agent }: { agent: AgentView }) {
  const { t } = useTranslation();
  const save = useSetUpdateWindow();
  const onChange = async (part: "from" | "to", value: string | null) => {
    if (value === null) return;
    try {
      const { message } = await save.mutateAsync({
        id: agent.id,
        ...agent.updateWindow,
        [part]: Number(value),
      });
      notifications.show({ color: "green", message });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  return (
    <Group
      gap={4}
      wrap="nowrap"
      title={t("agents.card.updateWindowHelp")}
      data-testid={`update-window-${agent.id}`}
    >
      {(["from", "to"] as const).map((part) => (
        <Select
          key={part}
          size="xs"
          w={84}
          aria-label={t(part === "from" ? "agents.card.updateFrom" : "agents.card.updateTo")}
          data={HOURS}
          value={String(agent.updateWindow[part])}
          onChange={(v) => onChange(part, v)}
          allowDeselect={false}
          disabled={save.isPending}
        />
      ))}
    </Group>
  );
}

/**
 * "Yerel Bağlantı Aracı" on /settings/api-keys: the agent's downloads, a pairing code with the install
 * steps, the company's agents (online/offline, last seen, version, machine, round trip) with re-pair and
 * revoke.
 */
export function AgentsCard() {
  const { t } = useTranslation();
  const agents = useAgents();
  const issue = useIssuePairingCode();
  const revoke = useRevokeAgent();
  const [pairing, setPairing] = useState<{ code: string; expiresAt: string } | null>(null);
  const server = window.location.origin;
  const release = useAgentDownloads().data?.data;
  const windowsFile = fileOf(release, "windows")?.fileName ?? "entegrasyon-agent-windows-x64.exe";
  const linuxFile = fileOf(release, "linux")?.fileName ?? "entegrasyon-agent-linux-x64";

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
    <Card withBorder padding="lg" data-testid="agents-card" id="agents" style={HASH_TARGET}>
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
        <AgentDownloads />
        {pairing && (
          <Alert title={t("agents.card.codeTitle")} color="blue" variant="light">
            <Stack gap="xs">
              <Text size="sm">{t("agents.card.codeValid", { time: formatDateTime(pairing.expiresAt) })}</Text>
              <Code fz="lg" data-testid="pairing-code">
                {pairing.code}
              </Code>
              <List type="ordered" size="sm" spacing="xs">
                <List.Item>{t("agents.card.stepDownload")}</List.Item>
                <List.Item>
                  {t("agents.card.stepWindows")}
                  <Code
                    block
                  >{`${windowsFile} service install --code ${pairing.code} --server ${server}`}</Code>
                </List.Item>
                <List.Item>
                  {t("agents.card.stepLinux")}
                  <Code block>
                    {`chmod +x ${linuxFile}\nsudo ./${linuxFile} service install --code ${pairing.code} --server ${server}`}
                  </Code>
                </List.Item>
                <List.Item>{t("agents.card.stepDoubleClick", { server })}</List.Item>
                <List.Item>
                  {t("agents.card.stepProxy")}
                  <Code block>{"--proxy http://kullanici:parola@vekil:8080"}</Code>
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
              <Stack gap="xs">
                <Text size="xs" c="dimmed">
                  {t("agents.serves.help")}
                </Text>
                <DataTable
                  striped
                  columns={[
                    t("agents.card.machine"),
                    t("agents.card.status"),
                    t("agents.serves.column"),
                    t("agents.card.lastSeen"),
                    t("agents.card.version"),
                    t("agents.card.updateWindow"),
                    t("agents.card.roundTrip"),
                    "",
                  ]}
                >
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
                      <Table.Td>
                        <AgentServes agent={a} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(a.lastSeenAt)}</Table.Td>
                      <Table.Td>
                        {a.version || "-"}
                        {a.updating ? (
                          <Badge ml="xs" color="blue" variant="light" data-testid="agent-updating">
                            {t("agents.card.updating")}
                          </Badge>
                        ) : (
                          a.newerVersion && (
                            <Badge ml="xs" color="yellow" variant="light">
                              {t("agents.card.newerVersion", { version: a.newerVersion })}
                            </Badge>
                          )
                        )}
                      </Table.Td>
                      <Table.Td>
                        <UpdateWindow agent={a} />
                      </Table.Td>
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
                </DataTable>
              </Stack>
            )
          }
        </QueryBoundary>
      </Stack>
    </Card>
  );
}
