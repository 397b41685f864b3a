import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The panel's confirmation before an action that cannot be undone (a deletion), or that replaces what is
 * in use: what will happen and "Emin misiniz?", a way back, and the action (red unless told otherwise).
 * The caller supplies the texts.
 */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel,
  loading = false,
  error,
  onConfirm,
  onClose,
  confirmTestId,
  confirmColor = "red",
  children,
}: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  loading?: boolean;
  /** Why the action failed, shown in the dialog (it stays open). */
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  confirmTestId?: string;
  /** Red for what cannot be undone; another colour for a change that keeps everything. */
  confirmColor?: string;
  /** A choice the action takes (below the message, outside its paragraph). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      // The corner's close needs a name (an unnamed button fails axe), and not the cancel button's: two
      // buttons of one name in a dialog leave a screen-reader user (and a test) unable to tell them apart.
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <Text size="sm" mb="md">
        {message}
      </Text>
      {children && <Stack mb="md">{children}</Stack>}
      {error && (
        <Alert color="red" variant="light" role="alert" mb="md">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button color={confirmColor} loading={loading} onClick={onConfirm} data-testid={confirmTestId}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
