import type { ChannelDto } from "@ep/contracts";
import { Badge, Button, Card, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconBuildingStore, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/components/feedback/ConfirmDialog";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { SectionCard } from "@/features/account/components/SectionCard";
import { useChannels } from "@/features/integration/api";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useRemoveChannel, useRetestChannel } from "../channels-api";
import { AddChannelModal } from "./AddChannelModal";
import { ChannelSettingsModal } from "./ChannelSettingsModal";
import { SandboxBadge } from "./SandboxConnect";

/** A channel's status is its last test, as the connection cards show theirs. */
function statusOf(channel: ChannelDto) {
  if (!channel.lastTest) return { color: "gray", label: "connections.apiKeys.statusUntested" } as const;
  return channel.lastTest.ok
    ? ({ color: "green", label: "connections.apiKeys.statusOk" } as const)
    : ({ color: "red", label: "connections.apiKeys.statusFailed" } as const);
}

/**
 * The company's marketplace channels beside its shop (issue 37): Trendyol, Hepsiburada, N11, Amazon
 * Türkiye, each with its status, settings, a test and removal. The shop's card above stays the spec's.
 */
export function ChannelsCard() {
  const { t } = useTranslation();
  const channels = useChannels();
  const [adding, setAdding] = useState(false);
  const title = t("connections.channels.title");
  return (
    <>
      <SectionCard
        title={title}
        icon={<IconBuildingStore size={20} aria-hidden />}
        aside={
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setAdding(true)}
          >
            {t("connections.channels.add")}
          </Button>
        }
        anchor="channels"
        testId="channels-card"
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t("connections.channels.explain")}
          </Text>
          <QueryBoundary
            query={channels}
            minHeight={120}
            isEmpty={(list) => list.length === 0}
            emptyMessage={t("connections.channels.empty")}
          >
            {(list) => (
              <Stack gap="sm" role="list">
                {list.map((c) => (
                  <ChannelRow key={c.id} channel={c} />
                ))}
              </Stack>
            )}
          </QueryBoundary>
        </Stack>
      </SectionCard>
      <AddChannelModal
        opened={adding}
        connected={channels.data?.map((c) => c.system) ?? []}
        onClose={() => setAdding(false)}
      />
    </>
  );
}

function ChannelRow({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const retest = useRetestChannel();
  const remove = useRemoveChannel();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const status = statusOf(channel);
  const onRetest = async () => {
    try {
      const tested = await retest.mutateAsync(channel.id);
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: tested.lastTest?.ok ? "green" : "red",
        message: tested.lastTest?.message ?? "",
      });
    } catch (error) {
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: "red",
        message: errorMessage(error),
      });
    }
  };
  const onRemove = async () => {
    setRemoveError(null);
    try {
      const { message } = await remove.mutateAsync(channel.id);
      setRemoving(false);
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: "green",
        message,
      });
    } catch (error) {
      setRemoveError(errorMessage(error));
    }
  };
  return (
    <Card role="listitem" withBorder padding="sm" data-testid={`channel-${channel.system}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap={6}>
            <Text fw={600}>{channel.name}</Text>
            {channel.isEmulated && <SandboxBadge />}
            <Badge
              color={status.color}
              variant="light"
              title={channel.lastTest?.message}
              data-testid={`channel-status-${channel.system}`}
            >
              {t(status.label)}
            </Badge>
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              {t("connections.channels.settings")}
            </Button>
            <Button size="xs" variant="light" loading={retest.isPending} onClick={() => void onRetest()}>
              {t("connections.apiKeys.test")}
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)}>
              {t("connections.channels.remove")}
            </Button>
          </Group>
        </Group>
        {channel.lastTest && (
          <Text size="sm" c={channel.lastTest.ok ? "dimmed" : "red"}>
            {t("connections.apiKeys.lastTest", { date: formatDateTime(channel.lastTest.testedAt) })}:{" "}
            {channel.lastTest.message}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t(channel.jobsReady ? "connections.channels.jobsReady" : "connections.channels.jobsWaiting")}
        </Text>
      </Stack>
      <ChannelSettingsModal channel={channel} opened={editing} onClose={() => setEditing(false)} />
      <ConfirmDialog
        opened={removing}
        title={t("connections.channels.removeTitle", { name: channel.name })}
        message={t("connections.channels.removeText", { name: channel.name })}
        confirmLabel={t("connections.channels.remove")}
        cancelLabel={t("common.cancel")}
        loading={remove.isPending}
        error={removeError}
        onConfirm={() => void onRemove()}
        onClose={() => setRemoving(false)}
        confirmTestId="channel-remove-confirm"
      />
    </Card>
  );
}
