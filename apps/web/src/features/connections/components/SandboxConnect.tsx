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
 * The marketplace sandboxes to connect as sales channels beside the shop (issue 37), none ticked by
 * default: the same choice inline on the connections screen and in the compact button's dialog.
 */
function MarketplaceChoice({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const { t } = useTranslation();
  const offered = (useChannelSystems().data ?? []).filter((m) => m.sandbox);
  if (offered.length === 0) return null;
  return (
    <Checkbox.Group
      label={t("connections.sandbox.channelsLabel")}
      description={t("connections.sandbox.channelsHelp")}
      value={value}
      onChange={onChange}
    >
      <Group gap="md" mt={6}>
        {offered.map((m) => (
          <Checkbox key={m.system} value={m.system} label={m.name} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

/**
 * "Deneme sistemlerine bağlan": connects the company's ERP and shop to its own seeded sandboxes, with
 * the marketplace sandboxes ticked. Full (the connections screen): the choice inline, one click. Compact
 * (the dashboard, first steps, settings screens): a dialog with the choice, so ERP and shop alone are one
 * click more. A company that has saved a real login is warned first; that login is kept and comes back
 * with "Gerçek sisteme geç".
 */
export function SandboxConnectButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const connect = useConnectSandbox();
  const overview = useConnections();
  const [confirming, setConfirming] = useState(false);
  const [channels, setChannels] = useState<string[]>([]);
  const realSaved = [overview.data?.erp, overview.data?.ecommerce].filter((c) => c && !c.isEmulated);
  const onClick = () => (compact || realSaved.length > 0 ? setConfirming(true) : void run());
  const run = async () => {
    try {
      const { message, data } = await connect.mutateAsync(channels);
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
    } finally {
      setConfirming(false);
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
  const warning = t("connections.sandbox.confirmText", {
    systems: realSaved.map((c) => c?.name).join(", "),
  });
  const dialog = (
    <ConfirmDialog
      opened={confirming}
      title={t(realSaved.length > 0 ? "connections.sandbox.confirmTitle" : "connections.sandbox.title")}
      message={realSaved.length > 0 || !compact ? warning : t("connections.sandbox.explain")}
      confirmLabel={t("connections.sandbox.connect")}
      cancelLabel={t("connections.sandbox.confirmCancel")}
      confirmColor="violet"
      loading={connect.isPending}
      onConfirm={() => void run()}
      onClose={() => setConfirming(false)}
      confirmTestId="sandbox-confirm"
    >
      {compact && <MarketplaceChoice value={channels} onChange={setChannels} />}
    </ConfirmDialog>
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
        <MarketplaceChoice value={channels} onChange={setChannels} />
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
