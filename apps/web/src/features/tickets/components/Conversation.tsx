import { SUPPORT_ANSWERED_BY, type TicketReply } from "@ep/contracts";
import { Avatar, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { IconPaperclip } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/format";
import { downloadAttachment } from "../api";

type Props = {
  replies: TicketReply[];
  /** Where an attachment is fetched: `${base}/${attachmentId}`. */
  attachmentBase: string;
  /** Whose side is "ours" (right-aligned): the customer's or support's. */
  side: "customer" | "support";
};

/** A ticket's messages in order; support's replies carry the 'F' circle. */
export function Conversation({ replies, attachmentBase, side }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="ticket-conversation">
      {replies.map((reply) => {
        const fromSupport = reply.answeredBy === SUPPORT_ANSWERED_BY;
        const ours = fromSupport === (side === "support");
        const name = fromSupport ? t("tickets.drawer.supportTeam") : reply.answeredByName;
        return (
          <Group key={reply.id} align="flex-start" justify={ours ? "flex-end" : "flex-start"} wrap="nowrap">
            {!ours && (
              <Avatar radius="xl" size="md" color={fromSupport ? "orange" : "blue"}>
                {fromSupport ? "F" : name.charAt(0).toLocaleUpperCase("tr")}
              </Avatar>
            )}
            <Paper
              p="sm"
              radius="md"
              maw="80%"
              bg={fromSupport ? "orange.0" : "blue.0"}
              data-testid="ticket-reply"
              data-answered-by={reply.answeredBy}
            >
              <Group gap="xs" mb={4}>
                <Text size="sm" fw={600}>
                  {name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(reply.created_Date)}
                </Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {reply.message}
              </Text>
              {reply.attachments.length > 0 && (
                <Group gap="xs" mt="xs">
                  {reply.attachments.map((file) => (
                    <Button
                      key={file.id}
                      size="compact-xs"
                      variant="default"
                      leftSection={<IconPaperclip size={12} />}
                      aria-label={t("tickets.detail.download", { name: file.fileName })}
                      onClick={() => void downloadAttachment(`${attachmentBase}/${file.id}`, file.fileName)}
                    >
                      {file.fileName}
                    </Button>
                  ))}
                </Group>
              )}
            </Paper>
            {ours && (
              <Avatar radius="xl" size="md" color={fromSupport ? "orange" : "blue"}>
                {fromSupport ? "F" : name.charAt(0).toLocaleUpperCase("tr")}
              </Avatar>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
