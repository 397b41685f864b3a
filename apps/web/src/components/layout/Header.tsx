import { Box, Burger, Group, Text } from "@mantine/core";
import { IconBuildingStore } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ActivitiesDrawer } from "@/features/activities/components/ActivitiesDrawer";
import { useSession } from "@/features/auth/session-store";
import { QuickLinksMenu } from "@/features/dashboard/components/QuickLinksMenu";
import { NotificationBell } from "@/features/notifications/components/NotificationBell";
import { TicketsDrawer } from "@/features/tickets/components/TicketsDrawer";
import { Logo } from "../brand/Logo";
import classes from "./layout.module.css";
import { UserMenu } from "./UserMenu";

type Props = { navOpened: boolean; onToggleNav: () => void };

/** Top bar: menu toggle on small screens, the user menu on the right; fits 390 px. */
export function Header({ navOpened, onToggleNav }: Props) {
  const { t } = useTranslation();
  const company = useSession().account?.company?.company_Name;
  return (
    <Group
      h="100%"
      px={{ base: "sm", sm: "lg" }}
      justify="space-between"
      wrap="nowrap"
      className={classes.header}
    >
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={navOpened}
          onClick={onToggleNav}
          hiddenFrom="lg"
          size="sm"
          aria-label={t("menu.toggle")}
        />
        <Box hiddenFrom="lg">
          <Link to="/dashboard" className={classes.brandLink}>
            <Logo size="sm" />
          </Link>
        </Box>
        {company && (
          <Group gap={8} visibleFrom="lg" wrap="nowrap">
            <IconBuildingStore size={18} color="var(--mantine-color-gray-6)" aria-hidden />
            <Text size="sm" fw={600} c="dark.5" data-testid="header-company">
              {company}
            </Text>
          </Group>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {/* Below sm the activities and quick links move into the burger menu (Aside). */}
        <Box visibleFrom="sm">
          <ActivitiesDrawer />
        </Box>
        <NotificationBell />
        {/* Spec section 2: the header ticket icon is there but hidden (tickets: side menu, footer). */}
        <Box hidden data-testid="hidden-ticket-icon">
          <TicketsDrawer />
        </Box>
        <Box visibleFrom="sm">
          <QuickLinksMenu />
        </Box>
        <UserMenu />
      </Group>
    </Group>
  );
}
