import { Button } from "@mantine/core";
import { IconMessage2Question } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

type Props = { jobErrorReportId?: number; jobRunId?: number; subject?: string };

/**
 * 'Destek talebi aç' for a failed task or a job run: opens /tickets/create with the link, so the
 * ticket carries the run id, the error and the payload for the support team.
 */
export function OpenTicketButton({ jobErrorReportId, jobRunId, subject }: Props) {
  const { t } = useTranslation();
  const query = new URLSearchParams();
  if (jobErrorReportId) query.set("jobErrorReportId", String(jobErrorReportId));
  if (jobRunId) query.set("jobRunId", String(jobRunId));
  if (subject) query.set("subject", subject.slice(0, 150));
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
