import type { ConnectionType } from "@ep/contracts";
import { Alert, Badge, Button, Checkbox, Code, Group, Stack, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconFlask } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/components/feedback/ConfirmDialog";
import { errorMessage } from "@/lib/errors";
import { useConnections, useConnectSandbox, useSandboxSystems } from "../api";
import { useChannelSystems } from "../channels-api";

/** The mark every sandbox connection carries, wherever it is shown. */
export function SandboxBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="violet" variant="light" leftSection={<IconFlask size={12} aria-hidden />}>
      {t("connections.sandbox.badge")}
    </Badge>
  );
}

/**
 * "Deneme sistemlerine bağlan": connects the company's ERP and shop to its own seeded sandboxes in
 * one click (the connections screen, the settings screens and the new company's dashboard). A company
 * that has saved a real login is asked first; that login is kept and comes back with "Gerçek sisteme geç".
 */
export function SandboxConnectButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const connect = useConnectSandbox();
  const overview = useConnections();
  const [confirming, setConfirming] = useState(false);
  // The marketplace sandboxes to connect too (issue 37), ticked on the full offer; none by default.
  const marketplaces = useChannelSystems();
  const [channels, setChannels] = useState<string[]>([]);
  const realSaved = [overview.data?.erp, overview.data?.ecommerce].filter((c) => c && !c.isEmulated);
  const onClick = () => (realSaved.length > 0 ? setConfirming(true) : void run());
  const run = async () => {
    setConfirming(false);
    try {
      const { message, data } = await connect.mutateAsync(compact ? [] : channels);
      const ok =
        data.erp.lastTest?.ok && data.ecommerce.lastTest?.ok && (data.channels ?? []).every((c) => c.ok);
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: ok ? "green" : "red",
        message,
        autoClose: ok ? 6000 : false,
      });
    } catch (error) {
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: "red",
        message: errorMessage(error),
      });
    }
  };
  const button = (
    <Button
      variant={compact ? "light" : "filled"}
      color="violet"
      leftSection={<IconFlask size={18} aria-hidden />}
      loading={connect.isPending}
      onClick={onClick}
    >
      {t("connections.sandbox.connect")}
    </Button>
  );
  const dialog = (
    <ConfirmDialog
      opened={confirming}
      title={t("connections.sandbox.confirmTitle")}
      message={t("connections.sandbox.confirmText", {
        systems: realSaved.map((c) => c?.name).join(", "),
      })}
      confirmLabel={t("connections.sandbox.connect")}
      cancelLabel={t("connections.sandbox.confirmCancel")}
      confirmColor="violet"
      onConfirm={() => void run()}
      onClose={() => setConfirming(false)}
      confirmTestId="sandbox-confirm"
    />
  );
  if (compact)
    return (
      <>
        {button}
        {dialog}
      </>
    );
  return (
    <Alert
      color="violet"
      variant="light"
      title={t("connections.sandbox.title")}
      icon={<IconFlask size={18} />}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t("connections.sandbox.explain")}</Text>
        {(marketplaces.data ?? []).some((m) => m.sandbox) && (
          <Checkbox.Group
            label={t("connections.sandbox.channelsLabel")}
            description={t("connections.sandbox.channelsHelp")}
            value={channels}
            onChange={setChannels}
          >
            <Group gap="md" mt={6}>
              {(marketplaces.data ?? [])
                .filter((m) => m.sandbox)
                .map((m) => (
                  <Checkbox key={m.system} value={m.system} label={m.name} />
                ))}
            </Group>
          </Checkbox.Group>
        )}
        {button}
        {dialog}
      </Stack>
    </Alert>
  );
}

/** The company's own login to the sandbox of the chosen system, as the form takes it. */
export function SandboxCredentials({
  connectionType,
  productType,
  labels,
}: {
  connectionType: ConnectionType;
  productType: number;
  labels: Record<string, string>;
}) {
  const { t } = useTranslation();
  const systems = useSandboxSystems();
  const system = systems.data?.find(
    (s) => s.connectionType === connectionType && s.productType === productType,
  );
  if (!system) return null;
  return (
    <Stack gap={6} data-testid={`sandbox-credentials-${connectionType}`}>
      <Group gap="xs">
        <SandboxBadge />
        <Text size="sm" fw={600}>
          {t("connections.sandbox.credentialsTitle", { system: system.name })}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t("connections.sandbox.credentialsHelp")}
      </Text>
      <Table.ScrollContainer minWidth={280}>
        <Table withTableBorder fz="xs" verticalSpacing={4}>
          <Table.Tbody>
            {Object.entries(system.credentials).map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th w="35%">{labels[name] ?? name}</Table.Th>
                <Table.Td>
                  <Code style={{ wordBreak: "break-all" }}>{value}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
