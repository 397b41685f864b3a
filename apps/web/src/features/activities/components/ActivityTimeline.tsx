import type { ActivityDto } from "@ep/contracts";
import { Avatar, Text, Timeline } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useSession } from "@/features/auth/session-store";
import { i18next } from "@/i18n";
import { formatDateTime } from "@/lib/format";

/** Description, the user's first-name initial and 'tarafından DD-MM-yyyy HH:mm tarihinde yapılan işlem.' */
export function ActivityTimeline({ items }: { items: ActivityDto[] }) {
  const { t } = useTranslation();
  const me = useSession().user?.first_Name ?? "";
  return (
    <Timeline bulletSize={28} lineWidth={2} data-testid="activity-timeline">
      {items.map((a) => {
        const first = a.user?.first_Name ?? me;
        // The action texts are the shared catalogue the server also uses (`activity.<action>`).
        const description = i18next.exists(`activity.${a.action}`, { ns: "shared" })
          ? t(`activity.${a.action}`, { ns: "shared", detail: a.detail })
          : a.activity_Description;
        return (
          <Timeline.Item
            key={a.id}
            bullet={
              <Avatar size={26} radius="xl" color="brand" title={first}>
                {first.charAt(0).toLocaleUpperCase("tr-TR")}
              </Avatar>
            }
          >
            <Text size="sm" fw={500}>
              {description}
            </Text>
            <Text size="xs" c="dimmed">
              {t("activities.by", { date: formatDateTime(a.created_Date) })}
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
