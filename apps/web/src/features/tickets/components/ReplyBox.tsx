import { Alert, Button, Group, Stack, Textarea } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { translateMessage } from "@/i18n";
import { errorMessage } from "@/lib/errors";
import { AttachmentInput, attachmentProblem } from "./AttachmentInput";

type Props = {
  label: string;
  placeholder: string;
  submitLabel: string;
  pending: boolean;
  onSend: (message: string, files: File[]) => Promise<unknown>;
  /** The customer may attach files; support answers in text. */
  withAttachments?: boolean;
  /** Shown at the left of the send button (support's close button). */
  extraAction?: ReactNode;
  testIdPrefix: string;
};

/** The message box under a conversation, for the customer and for support. */
export function ReplyBox({
  label,
  placeholder,
  submitLabel,
  pending,
  onSend,
  withAttachments,
  extraAction,
  testIdPrefix,
}: Props) {
  const [message, setMessage] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = attachmentProblem(files);
    setFileError(problem);
    if (!message.trim()) {
      setError(translateMessage("tickets.messageRequired"));
      return;
    }
    if (problem) return;
    try {
      await onSend(message.trim(), files);
      setMessage("");
      setFiles([]);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <Textarea
          label={label}
          placeholder={placeholder}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={3}
          maxLength={5000}
          data-testid={`${testIdPrefix}-input`}
        />
        {withAttachments && <AttachmentInput value={files} onChange={setFiles} error={fileError} />}
        <Group justify={extraAction ? "space-between" : "flex-end"}>
          {extraAction}
          <Button type="submit" loading={pending} data-testid={`${testIdPrefix}-send`}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
