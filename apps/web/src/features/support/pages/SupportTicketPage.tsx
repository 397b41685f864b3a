import type { SupportTicketDetail } from "@ep/contracts";
import { Alert, Anchor, Button, Card, Code, Divider, Grid, Group, Stack, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { RunStatusBadge } from "@/features/integration/components/RunStatusBadge";
import { Conversation } from "@/features/tickets/components/Conversation";
import { ReplyBox } from "@/features/tickets/components/ReplyBox";
import { TicketStatusBadge } from "@/features/tickets/components/TicketStatusBadge";
import { formatDateTime } from "@/lib/format";
import { useSupportClose, useSupportReply, useSupportTicket } from "../api";

const CLOSED = 3;
const CLOSED_BY = { customer: "closedByCustomer", support: "closedBySupport", auto: "closedByAuto" } as const;

/** /support/tickets/:ticketId — the conversation, the linked run and failed task, reply and close. */
export default function SupportTicketPage() {
  const { t } = useTranslation();
  const id = Number(useParams().ticketId);
  const ticket = useSupportTicket(id);
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Anchor component={Link} to="/support" size="sm">
          {t("support.inbox.title")}
        </Anchor>
        <Text size="sm" c="dimmed">
          / {t("support.ticket.title", { id })}
        </Text>
      </Group>
      <QueryBoundary query={ticket} minHeight={240}>
        {(data) => (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <Card withBorder radius="md" p="lg">
                <Title order={1} fz={20} mb="md">
                  #{data.id} · {data.subject}
                </Title>
                <Conversation
                  replies={data.ticketReplies}
                  attachmentBase={`/api/support/tickets/${data.id}/attachments`}
                  side="support"
                />
                <Divider my="lg" />
                {data.status === CLOSED ? (
                  <Alert color="gray" icon={<IconInfoCircle size={18} />}>
                    {t("support.ticket.closedNote")}{" "}
                    {data.closedBy &&
                      t(`support.ticket.${CLOSED_BY[data.closedBy as keyof typeof CLOSED_BY]}`)}
                  </Alert>
                ) : (
                  <ReplyForm ticketId={data.id} />
                )}
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Stack gap="lg">
                <Card withBorder radius="md" p="lg">
                  <Stack gap="xs">
                    <Field label={t("support.ticket.status")}>
                      <TicketStatusBadge status={data.status} />
                    </Field>
                    <Field label={t("support.ticket.company")}>
                      <Text size="sm">{data.company.name}</Text>
                    </Field>
                    <Field label={t("support.ticket.customer")}>
                      <Text size="sm">
                        {data.account.first_Name} {data.account.last_Name} · {data.account.email}
                      </Text>
                    </Field>
                    <Field label={t("support.ticket.category")}>
                      <Text size="sm">
                        {[data.parentCategory?.name, data.category?.name].filter(Boolean).join(" / ")}
                      </Text>
                    </Field>
                    <Field label={t("support.ticket.created")}>
                      <Text size="sm">{formatDateTime(data.created_Date)}</Text>
                    </Field>
                  </Stack>
                </Card>
                <LinkedRun ticket={data} />
              </Stack>
            </Grid.Col>
          </Grid>
        )}
      </QueryBoundary>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

function LinkedRun({ ticket }: { ticket: SupportTicketDetail }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" p="lg" data-testid="support-linked">
      <Text fw={600} mb="sm">
        {t("support.ticket.linked")}
      </Text>
      {!ticket.run && !ticket.failedTask && (
        <Text size="sm" c="dimmed">
          {t("support.ticket.noLink")}
        </Text>
      )}
      {ticket.run && (
        <Stack gap={4} mb="md">
          <Text size="sm" fw={600}>
            {t("support.ticket.run", { id: ticket.run.id })} · {ticket.run.jobName}
          </Text>
          <Text size="sm">
            <RunStatusBadge status={ticket.run.status} /> {formatDateTime(ticket.run.queued_Date)}
          </Text>
          {ticket.run.report && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: "pre-wrap" }}>
              {t("support.ticket.runReport")}: {ticket.run.report}
            </Text>
          )}
        </Stack>
      )}
      {ticket.failedTask && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t("support.ticket.failedTask", { id: ticket.failedTask.id })}
          </Text>
          <Text size="sm">
            {t("support.ticket.entityKey")}: {ticket.failedTask.entityKey} · {t("support.ticket.errorType")}:{" "}
            {ticket.failedTask.errorType}
          </Text>
          <Text size="sm" c="red.7">
            {t("support.ticket.error")}: {ticket.failedTask.message}
          </Text>
          <Text size="sm" c="dimmed">
            {t("support.ticket.payload")}
          </Text>
          <Code block mah={260} style={{ overflow: "auto" }}>
            {JSON.stringify(ticket.failedTask.payload, null, 2)}
          </Code>
        </Stack>
      )}
    </Card>
  );
}

function ReplyForm({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const reply = useSupportReply(ticketId);
  const close = useSupportClose(ticketId);
  return (
    <ReplyBox
      label={t("support.ticket.reply")}
      placeholder={t("support.ticket.replyPlaceholder")}
      submitLabel={t("support.ticket.send")}
      pending={reply.isPending}
      onSend={(message) => reply.mutateAsync(message)}
      testIdPrefix="support-reply"
      extraAction={
        <Button
          variant="light"
          color="red"
          loading={close.isPending}
          onClick={() => close.mutate(undefined)}
          data-testid="support-close"
        >
          {t("support.ticket.close")}
        </Button>
      }
    />
  );
}
