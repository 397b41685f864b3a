import { Box, CloseButton, Divider, Group, NavLink, ScrollArea, Stack, Text } from "@mantine/core";
import { IconHistory, IconLogout, IconUser } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { QUICK_LINKS } from "@/features/dashboard/components/QuickLinksMenu";
import { Logo } from "../brand/Logo";
import classes from "./layout.module.css";
import { NAV_ITEMS } from "./nav-items";

/** The dark side menu. */
export function Aside({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack gap={0} h="100%" className={classes.aside}>
      <Group px="lg" h={70} justify="space-between" wrap="nowrap" className={classes.asideBrand}>
        <Link to="/dashboard" className={classes.brandLink} onClick={onNavigate}>
          <Logo variant="light" size="sm" />
        </Link>
        <CloseButton
          hiddenFrom="lg"
          variant="transparent"
          c="gray.5"
          onClick={onNavigate}
          aria-label={t("menu.toggle")}
        />
      </Group>
      <ScrollArea flex={1} scrollbarSize={6} type="hover">
        <Box component="nav" aria-label={t("menu.navigation")} px="sm" py="md">
          {NAV_ITEMS.map(({ to, label, icon: Icon, badge: Badge }) => {
            const active = pathname === to || pathname.startsWith(`${to}/`);
            return (
              <NavLink
                key={to}
                component={Link}
                to={to}
                label={t(label)}
                leftSection={<Icon size={20} stroke={1.6} />}
                rightSection={Badge ? <Badge /> : undefined}
                active={active}
                aria-current={active ? "page" : undefined}
                className={classes.navLink}
                onClick={onNavigate}
              />
            );
          })}
        </Box>
        <PhoneMenu onNavigate={onNavigate} />
      </ScrollArea>
    </Stack>
  );
}

/**
 * On a phone the header keeps only the bell and the user avatar: the quick links, the activities
 * and the account's everyday items live here, in the burger menu.
 */
function PhoneMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const item = (to: string, label: string, Icon: typeof IconUser, testId?: string) => (
    <NavLink
      key={`${to}-${label}`}
      component={Link}
      to={to}
      label={label}
      leftSection={<Icon size={20} stroke={1.6} />}
      className={classes.navLink}
      onClick={onNavigate}
      data-testid={testId}
    />
  );
  return (
    <Box hiddenFrom="sm" px="sm" pb="md" data-testid="phone-menu">
      <Divider color="#393945" variant="dashed" mb="sm" />
      <Text size="xs" fw={600} tt="uppercase" c="gray.6" px="sm" mb={4}>
        {t("dashboard.quickLinks.title")}
      </Text>
      {QUICK_LINKS.map(({ key, to, icon }) => item(to, t(`dashboard.quickLinks.${key}`), icon))}
      {item("/activities", t("activities.title"), IconHistory)}
      <Divider color="#393945" variant="dashed" my="sm" />
      {item("/settings/account/details", t("userMenu.profile"), IconUser)}
      {item("/logout", t("userMenu.logout"), IconLogout, "phone-logout")}
    </Box>
  );
}
