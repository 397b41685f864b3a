import { createTicketSchema } from "@ep/contracts";
import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertCircle, IconLink } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { PageHeader } from "@/components/layout/PageHeader";
import { translateMessage } from "@/i18n";
import { errorMessage } from "@/lib/errors";
import { useCreateTicket, useTicketCategories } from "../api";
import { AttachmentInput, attachmentProblem } from "../components/AttachmentInput";

type Errors = Partial<Record<"parent" | "categoryId" | "subject" | "message" | "files", string>>;

const positive = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * /tickets/create — category, then sub-category, subject, message, attachments. Opened from a
 * failed task or a run with `?jobErrorReportId=` / `?jobRunId=` (and an optional `subject=`).
 */
export default function CreateTicketPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const jobErrorReportId = positive(params.get("jobErrorReportId"));
  const jobRunId = positive(params.get("jobRunId"));
  const [parent, setParent] = useState<string | null>(null);
  const [child, setChild] = useState<string | null>(null);
  // Opened from a failed task or run: the job, the record and the reason in words start the ticket.
  const about = { job: params.get("job"), record: params.get("record"), reason: params.get("reason") };
  const [subject, setSubject] = useState(() =>
    about.job && about.reason
      ? `${about.job}${about.record ? ` · ${about.record}` : ""}: ${about.reason}`.slice(0, 150)
      : (params.get("subject") ?? ""),
  );
  const [message, setMessage] = useState(() =>
    about.job && about.reason
      ? t(about.record ? "tickets.create.prefillTask" : "tickets.create.prefillRun", {
          job: about.job,
          record: about.record,
          reason: about.reason,
          interpolation: { escapeValue: false },
        })
      : "",
  );
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const parents = useTicketCategories(null);
  const children = useTicketCategories(parent ? Number(parent) : null, parent !== null);
  const create = useCreateTicket();
  const hasChildren = (children.data?.length ?? 0) > 0;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const categoryId = hasChildren ? child : parent;
    const next: Errors = {};
    const parsed = createTicketSchema.safeParse({ categoryId: categoryId ?? "", subject, message });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as keyof Errors;
        next[field] ??= translateMessage(issue.message);
      }
    }
    if (next.categoryId && parent && hasChildren) {
      next.categoryId = t("tickets.create.subCategoryRequired");
    } else if (next.categoryId) {
      next.parent = next.categoryId;
      delete next.categoryId;
    }
    const fileProblem = attachmentProblem(files);
    if (fileProblem) next.files = fileProblem;
    setErrors(next);
    if (!parsed.success || fileProblem) return;
    try {
      const ticket = await create.mutateAsync({ ...parsed.data, jobErrorReportId, jobRunId, files });
      notifications.show({ color: "green", message: translateMessage("tickets.created") });
      navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      setFormError(errorMessage(error));
    }
  };

  return (
    <>
      <PageHeader
        title={t("tickets.create.title")}
        breadcrumbs={[{ label: t("tickets.list.title"), to: "/tickets" }]}
      />
      <Card withBorder radius="md" p="lg" maw={820}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {formError && (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
                {formError}
              </Alert>
            )}
            {(jobErrorReportId || jobRunId) && (
              <Alert color="blue" icon={<IconLink size={18} />} data-testid="ticket-linked">
                {about.job
                  ? t(about.record ? "tickets.create.linkedTaskNamed" : "tickets.create.linkedRunNamed", {
                      job: about.job,
                      record: about.record,
                      interpolation: { escapeValue: false },
                    })
                  : jobErrorReportId
                    ? t("tickets.create.linkedTask", { id: jobErrorReportId })
                    : t("tickets.create.linkedRun", { id: jobRunId })}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t("tickets.create.category")}
                placeholder={t("tickets.create.categoryPlaceholder")}
                data={(parents.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                value={parent}
                onChange={(v) => {
                  setParent(v);
                  setChild(null);
                }}
                error={errors.parent}
                withAsterisk
                data-testid="ticket-category"
              />
              <Select
                label={t("tickets.create.subCategory")}
                placeholder={t("tickets.create.subCategoryPlaceholder")}
                data={(children.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                value={child}
                onChange={setChild}
                disabled={!parent || !hasChildren}
                error={errors.categoryId}
                withAsterisk={hasChildren}
                data-testid="ticket-subcategory"
              />
            </SimpleGrid>
            <TextInput
              label={t("tickets.create.subject")}
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
              error={errors.subject}
              withAsterisk
              maxLength={150}
              data-testid="ticket-subject"
            />
            <Textarea
              label={t("tickets.create.message")}
              placeholder={t("tickets.create.messagePlaceholder")}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              error={errors.message}
              withAsterisk
              autosize
              minRows={5}
              maxLength={5000}
              data-testid="ticket-message"
            />
            <AttachmentInput value={files} onChange={setFiles} error={errors.files} />
            <Group justify="flex-end">
              <Button variant="default" component={Link} to="/tickets">
                {t("tickets.create.cancel")}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="ticket-submit">
                {t("tickets.create.submit")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </>
  );
}
