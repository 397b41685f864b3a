import { Button } from "@mantine/core";
import { IconMessage2Question } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** What the ticket is about, in the user's words: the job, the record and the Turkish reason. */
export type TicketContext = { job: string; record?: string; reason: string };

type Props = { jobErrorReportId?: number; jobRunId?: number; context: TicketContext };

/**
 * 'Destek talebi aç' for a failed task or a job run: opens /tickets/create with the link, so the
 * ticket carries the run id, the error and the payload for the support team, and its subject and
 * message start with the job, the record and the reason in words (not an internal number).
 */
export function OpenTicketButton({ jobErrorReportId, jobRunId, context }: Props) {
  const { t } = useTranslation();
  const query = new URLSearchParams();
  if (jobErrorReportId) query.set("jobErrorReportId", String(jobErrorReportId));
  if (jobRunId) query.set("jobRunId", String(jobRunId));
  query.set("job", context.job);
  if (context.record) query.set("record", context.record);
  query.set("reason", context.reason.slice(0, 500));
  return (
    <Button
      component={Link}
      to={`/tickets/create?${query.toString()}`}
      variant="light"
      size="xs"
      leftSection={<IconMessage2Question size={14} />}
      data-testid="open-ticket"
    >
      {t("tickets.openFromTask")}
    </Button>
  );
}
