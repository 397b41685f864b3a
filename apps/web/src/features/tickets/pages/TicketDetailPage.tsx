import { Alert, Button, Card, Divider, Grid, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { formatDateTime } from "@/lib/format";
import { useCloseTicket, useReplyTicket, useTicket } from "../api";
import { Conversation } from "../components/Conversation";
import { ReplyBox } from "../components/ReplyBox";
import { TicketStatusBadge } from "../components/TicketStatusBadge";

const CLOSED = 3;

/** /tickets/:ticketId — the conversation, a reply box and closing the ticket. */
export default function TicketDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().ticketId);
  const ticket = useTicket(id);
  return (
    <>
      <PageHeader
        title={t("tickets.detail.title", { id })}
        breadcrumbs={[{ label: t("tickets.list.title"), to: "/tickets" }]}
      />
      <QueryBoundary query={ticket} minHeight={240}>
        {(data) => (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Card withBorder radius="md" p="lg">
                <Title order={2} fz="lg" mb="md" data-testid="ticket-subject-title">
                  {data.subject}
                </Title>
                <Conversation
                  replies={data.ticketReplies}
                  attachmentBase={`/api/Ticket/my-company/${data.id}/attachments`}
                  side="customer"
                />
                <Divider my="lg" />
                {data.status === CLOSED ? (
                  <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="ticket-closed-note">
                    {t("tickets.detail.closedNote")}
                  </Alert>
                ) : (
                  <ReplyForm ticketId={data.id} />
                )}
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Card withBorder radius="md" p="lg">
                <Stack gap="sm">
                  <Row label={t("tickets.detail.status")}>
                    <TicketStatusBadge status={data.status} />
                  </Row>
                  <Row label={t("tickets.detail.category")}>
                    <Text size="sm">
                      {[data.parentCategory?.name, data.category?.name].filter(Boolean).join(" / ") || "-"}
                    </Text>
                  </Row>
                  <Row label={t("tickets.detail.created")}>
                    <Text size="sm">{formatDateTime(data.created_Date)}</Text>
                  </Row>
                  {data.jobErrorReportId && (
                    <Text size="sm" c="dimmed">
                      {t("tickets.detail.linkedTask", { id: data.jobErrorReportId })}
                    </Text>
                  )}
                  {data.jobRunId && (
                    <Text size="sm" c="dimmed">
                      {t("tickets.detail.linkedRun", { id: data.jobRunId })}
                    </Text>
                  )}
                  {data.status !== CLOSED && <CloseButton ticketId={data.id} />}
                  <Text size="xs" c="dimmed">
                    {t("tickets.drawer.autoCloseNote")}
                  </Text>
                </Stack>
              </Card>
            </Grid.Col>
          </Grid>
        )}
      </QueryBoundary>
    </>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

function ReplyForm({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const reply = useReplyTicket(ticketId);
  return (
    <ReplyBox
      label={t("tickets.detail.reply")}
      placeholder={t("tickets.detail.replyPlaceholder")}
      submitLabel={t("tickets.detail.send")}
      pending={reply.isPending}
      onSend={(message, files) => reply.mutateAsync({ message, files })}
      withAttachments
      testIdPrefix="ticket-reply"
    />
  );
}

function CloseButton({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const closeTicket = useCloseTicket(ticketId);
  return (
    <>
      <Button variant="light" color="red" onClick={open} data-testid="ticket-close">
        {t("tickets.detail.closeTicket")}
      </Button>
      <Modal opened={opened} onClose={close} title={t("tickets.detail.closeConfirmTitle")} centered>
        <Text size="sm">{t("tickets.detail.closeConfirm")}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close}>
            {t("tickets.detail.cancel")}
          </Button>
          <Button
            color="red"
            loading={closeTicket.isPending}
            onClick={async () => {
              await closeTicket.mutateAsync().catch(() => undefined);
              close();
            }}
            data-testid="ticket-close-confirm"
          >
            {t("tickets.detail.confirm")}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
