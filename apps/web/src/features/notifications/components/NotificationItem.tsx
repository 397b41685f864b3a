import type { NotificationDto } from "@ep/contracts";
import { Box, Group, Text, UnstyledButton } from "@mantine/core";
import { IconAlertCircle, IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ageOf } from "../age";
import classes from "../notifications.module.css";

/**
 * One notification: unread dot, type icon, text and an age label ending in 'önce'; a click marks it
 * read and opens what it is about (a ticket answer opens the ticket).
 */
export function NotificationItem({
  item,
  onRead,
  onOpen,
}: {
  item: NotificationDto;
  onRead: (id: number) => void;
  /** Called before following the notification's link (the bell's panel closes). */
  onOpen?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const age = ageOf(item.created_Date);
  const Icon = item.type === "Error" ? IconAlertCircle : IconInfoCircle;
  return (
    <UnstyledButton
      className={classes.item}
      data-unread={!item.is_Read || undefined}
      data-testid="notification-item"
      onClick={() => {
        if (!item.is_Read) onRead(item.id);
        if (item.link) {
          onOpen?.();
          navigate(item.link);
        }
      }}
      title={item.is_Read ? undefined : t("notifications.markRead")}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box w={8} pt={8} aria-hidden>
          {!item.is_Read && <span className={classes.dot} data-testid="notification-unread-dot" />}
        </Box>
        <Icon
          size={20}
          color={item.type === "Error" ? "var(--mantine-color-red-6)" : "var(--mantine-color-blue-6)"}
          aria-label={t(item.type === "Error" ? "notifications.typeError" : "notifications.typeInfo")}
        />
        <Box flex={1}>
          <Text size="sm" fw={item.is_Read ? 400 : 600}>
            {item.notification_Text}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`notifications.age.${age.unit}`, { count: age.count })}
          </Text>
        </Box>
      </Group>
    </UnstyledButton>
  );
}
