import { Button, Group, Modal, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import type { InvoiceRow } from "../api";

/** What the page gives a row dialog: the row (null: closed), closing, and its failure handler. */
export type RowDialogProps = { row: InvoiceRow | null; onClose: () => void; onError: (e: unknown) => void };

/**
 * A dialog on one invoice row: its inputs, and one button that sends them; a success clears the inputs
 * (`onSent`) and closes, a failure goes to the page's handler.
 */
export function RowDialog({
  row,
  title,
  onClose,
  onError,
  send,
  onSent,
  pending,
  disabled,
  confirm,
  children,
}: RowDialogProps & {
  title: string;
  send: (row: InvoiceRow, callbacks: { onSuccess: () => void; onError: (e: unknown) => void }) => void;
  onSent: () => void;
  pending: boolean;
  disabled: boolean;
  confirm: { label: string; testId: string; color?: string };
  children: ReactNode;
}) {
  return (
    <Modal opened={row !== null} onClose={onClose} title={title}>
      <Stack>
        {children}
        <Group justify="flex-end">
          <Button
            color={confirm.color}
            disabled={disabled}
            loading={pending}
            onClick={() =>
              row &&
              send(row, {
                onSuccess: () => {
                  onSent();
                  onClose();
                },
                onError,
              })
            }
            data-testid={confirm.testId}
          >
            {confirm.label}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
