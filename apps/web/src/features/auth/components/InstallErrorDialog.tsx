import { INSTALL_ERROR_CODES, type InstallErrorCode } from "@ep/contracts";
import { Button, Group, Modal, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";

const isKnownCode = (code: string): code is InstallErrorCode =>
  (INSTALL_ERROR_CODES as readonly string[]).includes(code);

/** Partners whose landing screens end on the sign-in screen with an error code (Ideasoft, Logo). */
const PARTNER_REQUEST_TYPES = ["ideasoft", "logo"];

/** On the sign-in screen with `?request_type=ideasoft|logo&error_code=…`: tells the user to contact support. */
export function InstallErrorDialog() {
  const [params] = useSearchParams();
  const cause = (useLocation().state as { cause?: unknown } | null)?.cause;
  const code = PARTNER_REQUEST_TYPES.includes(params.get("request_type") ?? "")
    ? params.get("error_code")
    : null;
  const [opened, setOpened] = useState(Boolean(code));
  if (!code || !opened) return null;
  return (
    <PartnerErrorDialog
      code={code}
      cause={typeof cause === "string" ? cause : undefined}
      onClose={() => setOpened(false)}
    />
  );
}

/**
 * A partner install's error dialog: the spec's title for the code, and as body the cause the server
 * named (what went wrong and what to do), else the spec's "contact support".
 */
export function PartnerErrorDialog({
  code,
  cause,
  onClose,
  closeLabel,
}: {
  code: string;
  cause?: string | undefined;
  onClose: () => void;
  closeLabel?: string;
}) {
  const { t } = useTranslation();
  const title = isKnownCode(code) ? t(`auth.install.errors.${code}`) : t("auth.install.errors.unknown");
  return (
    <Modal
      opened
      onClose={onClose}
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
        {cause || t("auth.install.body")}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose} data-autofocus>
          {closeLabel ?? t("common.close")}
        </Button>
      </Group>
    </Modal>
  );
}
