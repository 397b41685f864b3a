import { Box, CloseButton, Group, NavLink, ScrollArea, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
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
      </ScrollArea>
    </Stack>
  );
}
