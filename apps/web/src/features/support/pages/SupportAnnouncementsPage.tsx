import { Alert, Badge, Button, Card, Grid, Group, Select, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DateField } from "@/components/form/DateField";
import { translateMessage } from "@/i18n";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format";
import { useAnnouncements, useCreateAnnouncement } from "../api";

/** Stored as the Turkish word the dashboards show; labelled in the console's language. */
const TYPES = [
  { value: "Bilgi", key: "typeInfo" },
  { value: "Bakım", key: "typeMaintenance" },
  { value: "Yenilik", key: "typeNews" },
] as const;

/** /support/announcements — write announcements that reach every company's dashboard. */
export default function SupportAnnouncementsPage() {
  const { t } = useTranslation();
  const list = useAnnouncements();
  const create = useCreateAnnouncement();
  const [type, setType] = useState<string | null>("Bilgi");
  const [content, setContent] = useState("");
  const [date, setDate] = useState("");
  const [error, setError] = useState<string | null>(null);
  const publish = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await create.mutateAsync({
        type: type ?? "",
        content,
        date: date ? new Date(`${date}T09:00:00`).toISOString() : undefined,
      });
      notifications.show({ color: "green", message: translateMessage("tickets.announcementCreated") });
      setContent("");
      setDate("");
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Card withBorder radius="md" p="lg">
          <Title order={1} fz={18} mb="xs">
            {t("support.announcements.new")}
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            {t("support.announcements.hint")}
          </Text>
          <form onSubmit={publish} noValidate>
            <Stack gap="sm">
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              <Select
                label={t("support.announcements.type")}
                data={TYPES.map((x) => ({ value: x.value, label: t(`support.announcements.${x.key}`) }))}
                value={type}
                onChange={setType}
                allowDeselect={false}
              />
              <Textarea
                label={t("support.announcements.content")}
                value={content}
                onChange={(e) => setContent(e.currentTarget.value)}
                autosize
                minRows={4}
                maxLength={1000}
                data-testid="announcement-content"
              />
              <DateField
                label={t("support.announcements.date")}
                value={date || null}
                onChange={(d) => setDate(d ?? "")}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={create.isPending} data-testid="announcement-publish">
                  {t("support.announcements.publish")}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder radius="md" p="lg">
          <Title order={2} fz={18} mb="md">
            {t("support.announcements.title")}
          </Title>
          <QueryBoundary
            query={list}
            isEmpty={(d) => d.length === 0}
            emptyMessage={t("support.announcements.empty")}
          >
            {(data) => (
              <Stack gap="sm">
                {data.map((a) => (
                  <Group key={a.id} align="flex-start" wrap="nowrap" gap="sm" data-testid="announcement-row">
                    <Text size="sm" c="dimmed" w={90}>
                      {formatDate(a.created_date)}
                    </Text>
                    <Badge variant="light">{a.type}</Badge>
                    <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                      {a.content}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </QueryBoundary>
        </Card>
      </Grid.Col>
    </Grid>
  );
}
