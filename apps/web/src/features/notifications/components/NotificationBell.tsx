import {
  ActionIcon,
  Anchor,
  Box,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
} from "@mantine/core";
import { IconBell } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useMarkAsRead, useNotificationCount, useNotifications } from "../api";
import { NotificationItem } from "./NotificationItem";

/** Spec section 9: the panel's list scrolls beyond 325 px. */
const PANEL_MAX_HEIGHT = 325;

/** The header bell (dot when the unread count is above 0) and its 'Bildirimler' panel. */
export function NotificationBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const count = useNotificationCount();
  const unread = Math.max(0, count.data ?? 0);
  return (
    // The dot wraps the popover, so the popup's ARIA attributes land on the button, not on a div.
    <Indicator disabled={unread === 0} color="red" size={9} offset={6} processing={false}>
      <Popover
        opened={opened}
        onChange={setOpened}
        width={360}
        position="bottom-end"
        shadow="md"
        withinPortal
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={t("notifications.bellLabel", { count: unread })}
            data-testid="notification-bell"
            data-unread={unread}
          >
            <IconBell size={20} stroke={1.6} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} data-testid="notification-panel">
          {opened && <NotificationPanel unread={unread} onNavigate={() => setOpened(false)} />}
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

function NotificationPanel({ unread, onNavigate }: { unread: number; onNavigate: () => void }) {
  const { t } = useTranslation();
  const list = useNotifications(1);
  const markRead = useMarkAsRead();
  const items = list.data?.dataList ?? [];
  return (
    <Stack gap={0}>
      <Box px="md" py="sm">
        <Text fw={600}>{t("notifications.title")}</Text>
        {unread > 0 && (
          <Text size="xs" c="dimmed" data-testid="notification-new-count">
            {t("notifications.newCount", { count: unread })}
          </Text>
        )}
      </Box>
      <Divider />
      {list.isPending ? (
        <Text size="sm" c="dimmed" p="md">
          {t("notifications.loading")}
        </Text>
      ) : list.isError ? (
        <Text size="sm" c="dimmed" p="md" role="alert">
          {t("common.loadFailed")}
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" p="md">
          {t("notifications.empty")}
        </Text>
      ) : (
        <>
          <ScrollArea.Autosize mah={PANEL_MAX_HEIGHT} type="auto">
            <Stack gap={2} p={4}>
              {items.map((n) => (
                <NotificationItem
                  key={n.id}
                  item={n}
                  onRead={(id) => markRead.mutate(id)}
                  onOpen={onNavigate}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Divider />
          <Group justify="center" py="xs">
            <Anchor component={Link} to="/notifications" size="sm" fw={500} onClick={onNavigate}>
              {t("notifications.showAll")}
            </Anchor>
          </Group>
        </>
      )}
    </Stack>
  );
}
