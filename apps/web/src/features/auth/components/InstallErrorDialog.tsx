import { Button, Group, Modal, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

/** Partner install error codes (spec section 8); each is a dialog title. */
export const INSTALL_ERROR_CODES = [
  "undefined_package_type_request",
  "create_company_failure",
  "create_user_failure",
  "get_license_failure",
  "system_exception",
  "user_not_found",
  "state_mismatch",
] as const;
type InstallErrorCode = (typeof INSTALL_ERROR_CODES)[number];

const isKnownCode = (code: string): code is InstallErrorCode =>
  (INSTALL_ERROR_CODES as readonly string[]).includes(code);

/** Partners whose landing screens end on the sign-in screen with an error code (Ideasoft, Logo). */
const PARTNER_REQUEST_TYPES = ["ideasoft", "logo"];

/** On the sign-in screen with `?request_type=ideasoft|logo&error_code=…`: tells the user to contact support. */
export function InstallErrorDialog() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = PARTNER_REQUEST_TYPES.includes(params.get("request_type") ?? "")
    ? params.get("error_code")
    : null;
  const [opened, setOpened] = useState(Boolean(code));
  if (!code) return null;
  const title = isKnownCode(code) ? t(`auth.install.errors.${code}`) : t("auth.install.errors.unknown");
  return (
    <Modal
      opened={opened}
      onClose={() => setOpened(false)}
      centered
      withCloseButton={false}
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="red" variant="light" radius="xl" size={36} aria-hidden>
            <IconAlertTriangle size={20} />
          </ThemeIcon>
          <Text fw={700}>{title}</Text>
        </Group>
      }
    >
      <Text size="sm" data-testid="install-error-body">
        {t("auth.install.body")}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={() => setOpened(false)} data-autofocus>
          {t("common.close")}
        </Button>
      </Group>
    </Modal>
  );
}
