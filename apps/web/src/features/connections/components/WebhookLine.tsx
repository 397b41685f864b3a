import { Button, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { errorMessage } from "@/lib/errors";
import { useRegisterWebhooks, useWebhookStatus } from "../api";

/** "5 minutes ago" in the panel's language, from the largest unit that fits. */
function ago(iso: string, language: string): string {
  const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  const fmt = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  const abs = Math.abs(seconds);
  if (abs < 60) return fmt.format(seconds, "second");
  if (abs < 3600) return fmt.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return fmt.format(Math.round(seconds / 3600), "hour");
  return fmt.format(Math.round(seconds / 86_400), "day");
}

/**
 * The shop card's webhook line: "Webhook: kayıtlı · son bildirim 2 dk önce", or "kayıtlı değil
 * (siparişler 5 dakikada bir kontrol edilir)" with a button that registers them.
 */
export function WebhookLine() {
  const { t, i18n } = useTranslation();
  const { data } = useWebhookStatus();
  const register = useRegisterWebhooks();
  if (!data?.supported) return null;
  const text = data.registered
    ? data.lastDeliveryAt
      ? t("connections.webhooks.registeredLast", { ago: ago(data.lastDeliveryAt, i18n.language) })
      : t("connections.webhooks.registeredNone")
    : t("connections.webhooks.notRegistered");
  return (
    <Group gap="xs" data-testid="webhook-line">
      <Text size="sm" c={data.registered ? undefined : "dimmed"}>
        {text}
      </Text>
      {!data.registered && (
        <Button
          size="compact-xs"
          variant="light"
          loading={register.isPending}
          onClick={() => register.mutate()}
        >
          {t("connections.webhooks.register")}
        </Button>
      )}
      {register.error && (
        <Text size="xs" c="red">
          {errorMessage(register.error)}
        </Text>
      )}
      {!register.error && data.lastError && !data.registered && (
        <Text size="xs" c="orange.8">
          {t("connections.webhooks.failed")}
        </Text>
      )}
    </Group>
  );
}
