import { Center, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconInbox } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Props = { message?: string; action?: ReactNode; minHeight?: number | string };

/** A data group loaded and has nothing to show. */
export function EmptyState({ message, action, minHeight = 160 }: Props) {
  const { t } = useTranslation();
  return (
    <Center mih={minHeight}>
      <Stack align="center" gap="xs">
        <ThemeIcon variant="light" color="gray" size={44} radius="xl" aria-hidden>
          <IconInbox size={24} />
        </ThemeIcon>
        <Text size="sm" c="dimmed" ta="center">
          {message ?? t("common.empty")}
        </Text>
        {action}
      </Stack>
    </Center>
  );
}
