import { Center, Loader, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

type Props = { label?: string; minHeight?: number | string };

/** A data group is loading ('Yükleniyor...'). */
export function LoadingState({ label, minHeight = 160 }: Props) {
  const { t } = useTranslation();
  const text = label ?? t("common.loading");
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}
