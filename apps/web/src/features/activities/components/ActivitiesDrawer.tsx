import { ActionIcon, Anchor, Drawer, Group, ScrollArea, Text, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconActivity } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useActivities } from "../api";
import { ActivityTimeline } from "./ActivityTimeline";

/** The header button and the right-hand 'Son Aktiviteler' drawer (spec section 2). */
export function ActivitiesDrawer() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Tooltip label={t("activities.title")}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={open}
          aria-label={t("activities.title")}
          data-testid="activities-button"
        >
          <IconActivity size={20} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        title={<Text fw={600}>{t("activities.title")}</Text>}
        closeButtonProps={{ "aria-label": t("activities.close") }}
        scrollAreaComponent={ScrollArea.Autosize}
        data-testid="activities-drawer"
      >
        {opened && <DrawerBody onNavigate={close} />}
      </Drawer>
    </>
  );
}

function DrawerBody({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const list = useActivities(1);
  if (list.isPending) return <Text size="sm">{t("activities.loading")}</Text>;
  if (list.isError) {
    return (
      <Text size="sm" role="alert">
        {t("common.loadFailed")}
      </Text>
    );
  }
  if (list.data.length === 0) return <Text size="sm">{t("activities.empty")}</Text>;
  return (
    <>
      <ActivityTimeline items={list.data} />
      <Group justify="center" mt="lg">
        <Anchor component={Link} to="/activities" size="sm" fw={500} onClick={onNavigate}>
          {t("activities.showAll")}
        </Anchor>
      </Group>
    </>
  );
}
