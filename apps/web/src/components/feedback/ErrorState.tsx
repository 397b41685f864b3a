import { Button, Center, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle, IconRefresh } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

type Props = {
  /** Short reason; defaults to 'Veriler yüklenemedi.' */
  message?: string;
  onRetry?: () => void;
  retrying?: boolean;
  minHeight?: number | string;
};

/** A data group failed to load: a short message and a retry button. */
export function ErrorState({ message, onRetry, retrying, minHeight = 160 }: Props) {
  const { t } = useTranslation();
  return (
    <Center mih={minHeight} role="alert">
      <Stack align="center" gap="xs">
        <ThemeIcon variant="light" color="red" size={44} radius="xl" aria-hidden>
          <IconAlertTriangle size={24} />
        </ThemeIcon>
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {message ?? t("common.loadFailed")}
        </Text>
        {onRetry && (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            onClick={onRetry}
            loading={retrying}
          >
            {t("common.retry")}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
