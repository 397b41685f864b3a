import {
  ActionIcon,
  Anchor,
  Badge,
  Divider,
  Drawer,
  Group,
  Indicator,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconMessage2Question } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { TICKET_PAGE_SIZE, useTicketCount, useTickets } from "../api";
import { TicketAvatars } from "./TicketAvatars";
import { TicketStatusBadge } from "./TicketStatusBadge";

/** The header ticket icon (dot when any ticket has status 2) and the 'Ticketlar' drawer. */
export function TicketsDrawer() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const count = useTicketCount();
  const answered = Math.max(0, count.data ?? 0);
  const label =
    answered > 0 ? t("tickets.drawer.openWithAnswers", { count: answered }) : t("tickets.drawer.open");
  return (
    <>
      <Tooltip label={label}>
        <Indicator disabled={answered === 0} color="red" size={9} offset={6} data-testid="ticket-dot">
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={open}
            aria-label={label}
            data-testid="tickets-button"
            data-answered={answered}
          >
            <IconMessage2Question size={20} stroke={1.6} />
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        title={<Text fw={600}>{t("tickets.drawer.title")}</Text>}
        closeButtonProps={{ "aria-label": t("tickets.drawer.close") }}
        scrollAreaComponent={ScrollArea.Autosize}
        data-testid="tickets-drawer"
      >
        {opened && <DrawerBody onNavigate={close} />}
      </Drawer>
    </>
  );
}

function DrawerBody({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const list = useTickets(1, TICKET_PAGE_SIZE, { orderBy: "desc" });
  let body: React.ReactNode;
  if (list.isPending) body = <Text size="sm">{t("tickets.drawer.loading")}</Text>;
  else if (list.isError || list.data.dataList.length === 0)
    body = <Text size="sm">{t("tickets.drawer.empty")}</Text>;
  else {
    body = (
      <Stack gap={0}>
        {list.data.dataList.map((ticket) => (
          <Stack
            key={ticket.id}
            gap={6}
            py="sm"
            style={{ borderBottom: "1px dashed var(--mantine-color-gray-3)" }}
            data-testid="ticket-row"
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={600} lineClamp={1}>
                <Text span c="dimmed" size="sm" mr={6}>
                  #{ticket.id}
                </Text>
                {ticket.subject}
              </Text>
              <TicketStatusBadge status={ticket.status} />
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <Badge variant="outline" color="gray" size="sm">
                  {t("tickets.drawer.supportTeam")}
                </Badge>
                <TicketAvatars ticket={ticket} />
              </Group>
              <Anchor component={Link} to={`/tickets/${ticket.id}`} size="sm" fw={500} onClick={onNavigate}>
                {t("tickets.drawer.detail")}
              </Anchor>
            </Group>
          </Stack>
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {body}
      <Group justify="center">
        <Anchor component={Link} to="/tickets" size="sm" fw={500} onClick={onNavigate}>
          {t("tickets.drawer.showAll")}
        </Anchor>
      </Group>
      <Divider />
      <Text size="xs" c="dimmed">
        {t("tickets.drawer.autoCloseNote")}
      </Text>
    </Stack>
  );
}
