import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENT_MAX_COUNT,
  TICKET_ATTACHMENT_TYPES,
} from "@ep/contracts";
import { FileInput } from "@mantine/core";
import { IconPaperclip } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { i18next } from "@/i18n";

/** The first problem with a set of files, checked before upload (the server checks the content again). */
export function attachmentProblem(files: File[]): string | null {
  const t = i18next.t;
  if (files.length > TICKET_ATTACHMENT_MAX_COUNT) return t("tickets.create.tooMany");
  for (const file of files) {
    if (file.size > TICKET_ATTACHMENT_MAX_BYTES) return t("tickets.create.fileTooLarge", { name: file.name });
    if (file.type && !TICKET_ATTACHMENT_TYPES.includes(file.type)) {
      return t("tickets.create.fileType", { name: file.name });
    }
  }
  return null;
}

type Props = { value: File[]; onChange: (files: File[]) => void; error?: string | null; label?: string };

/** Images and PDFs, up to five files of 5 MB each. */
export function AttachmentInput({ value, onChange, error, label }: Props) {
  const { t } = useTranslation();
  return (
    <FileInput
      multiple
      clearable
      accept={TICKET_ATTACHMENT_TYPES.join(",")}
      label={label ?? t("tickets.create.attachments")}
      placeholder={t("tickets.create.attachmentsPlaceholder")}
      description={t("tickets.create.attachmentsHint")}
      leftSection={<IconPaperclip size={16} />}
      value={value}
      onChange={onChange}
      error={error ?? undefined}
      data-testid="ticket-attachments"
    />
  );
}
