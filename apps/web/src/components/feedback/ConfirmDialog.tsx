import { Alert, Button, Group, Modal, Text } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The panel's confirmation before an action that cannot be undone (a deletion): what will happen and
 * "Emin misiniz?", a way back, and the action in red. The caller supplies the texts.
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
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text size="sm" mb="md">
        {message}
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert" mb="md">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button color="red" loading={loading} onClick={onConfirm} data-testid={confirmTestId}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
