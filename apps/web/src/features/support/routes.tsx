import "@mantine/notifications/styles.css";
import { AppShell, Box, Button, Group, Text } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { IconLogout } from "@tabler/icons-react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { Logo } from "@/components/brand/Logo";
import { LoadingState } from "@/components/feedback/LoadingState";

const InboxPage = lazy(() => import("./pages/SupportInboxPage"));
const TicketPage = lazy(() => import("./pages/SupportTicketPage"));
const CompaniesPage = lazy(() => import("./pages/SupportCompaniesPage"));
const AnnouncementsPage = lazy(() => import("./pages/SupportAnnouncementsPage"));
const ActionsPage = lazy(() => import("./pages/SupportActionsPage"));
const DeletionsPage = lazy(() => import("./pages/SupportDeletionsPage"));
const ConnectionChecksPage = lazy(() => import("./pages/SupportConnectionChecksPage"));

const NAV = [
  { to: "/support", key: "inbox" },
  { to: "/support/companies", key: "companies" },
  { to: "/support/announcements", key: "announcements" },
  { to: "/support/actions", key: "actions" },
  { to: "/support/deletions", key: "deletions" },
  { to: "/support/connection-checks", key: "connectionChecks" },
] as const;

function SupportLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = (to: string) =>
    to === "/support"
      ? pathname === "/support" || pathname.startsWith("/support/tickets")
      : pathname.startsWith(to);
  return (
    <>
      <Notifications position="top-right" limit={3} />
      <AppShell header={{ height: 64 }} padding="lg">
        <AppShell.Header>
          <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
            <Group gap="md" wrap="nowrap">
              <Logo size="sm" />
              <Text fw={700} c="dark.6" visibleFrom="sm">
                {t("support.title")}
              </Text>
              <Group gap={4} component="nav" aria-label={t("support.title")} wrap="nowrap">
                {NAV.map((item) => (
                  <Button
                    key={item.to}
                    component={Link}
                    to={item.to}
                    variant={current(item.to) ? "light" : "subtle"}
                    color={current(item.to) ? "blue" : "gray"}
                    size="compact-sm"
                    aria-current={current(item.to) ? "page" : undefined}
                  >
                    {t(`support.nav.${item.key}`)}
                  </Button>
                ))}
              </Group>
            </Group>
            <Button
              component={Link}
              to="/logout"
              variant="subtle"
              color="gray"
              size="compact-sm"
              leftSection={<IconLogout size={16} />}
            >
              {t("support.nav.logout")}
            </Button>
          </Group>
        </AppShell.Header>
        <AppShell.Main bg="gray.0">
          <Box maw={1280} mx="auto">
            <Suspense fallback={<LoadingState minHeight={320} />}>
              <Outlet />
            </Suspense>
          </Box>
        </AppShell.Main>
      </AppShell>
    </>
  );
}

/** The support console: support accounts land here; every other path leads back to it. */
export default function SupportRoutes() {
  return (
    <Routes>
      <Route path="support" element={<SupportLayout />}>
        <Route index element={<InboxPage />} />
        <Route path="tickets/:ticketId" element={<TicketPage />} />
        <Route path="companies" element={<CompaniesPage />} />
        <Route path="announcements" element={<AnnouncementsPage />} />
        <Route path="actions" element={<ActionsPage />} />
        <Route path="deletions" element={<DeletionsPage />} />
        <Route path="connection-checks" element={<ConnectionChecksPage />} />
        <Route path="*" element={<Navigate to="/support" replace />} />
      </Route>
      <Route path="*" element={<Navigate to="/support" replace />} />
    </Routes>
  );
}
