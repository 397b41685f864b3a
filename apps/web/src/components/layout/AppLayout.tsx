import "@mantine/notifications/styles.css";
import { AppShell, Box } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Notifications } from "@mantine/notifications";
import { Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { LoadingState } from "../feedback/LoadingState";
import { Aside } from "./Aside";
import { Footer } from "./Footer";
import { Header } from "./Header";
import classes from "./layout.module.css";
import { SplashScreen } from "./SplashScreen";

/** The signed-in shell: aside menu, header with the user menu, content, footer; splash for 1 s. */
export function AppLayout() {
  const { t } = useTranslation();
  const [navOpened, nav] = useDisclosure(false);
  const { pathname } = useLocation();

  // A new page: close the mobile menu and start at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on purpose whenever the path changes
  useEffect(() => {
    nav.close();
    window.scrollTo({ top: 0 });
  }, [pathname, nav.close]);

  return (
    <>
      <SplashScreen duration={1000} />
      <Notifications position="top-right" limit={3} />
      <a href="#main-content" className={classes.skipLink}>
        {t("app.skipToContent")}
      </a>
      <AppShell
        layout="alt"
        header={{ height: 70 }}
        navbar={{ width: 265, breakpoint: "lg", collapsed: { mobile: !navOpened } }}
        padding={0}
      >
        <AppShell.Header withBorder={false}>
          <Header navOpened={navOpened} onToggleNav={nav.toggle} />
        </AppShell.Header>
        <AppShell.Navbar withBorder={false}>
          <Aside onNavigate={nav.close} />
        </AppShell.Navbar>
        <AppShell.Main className={classes.main}>
          <Box id="main-content" className={classes.content} p={{ base: "md", md: "xl" }} tabIndex={-1}>
            <Suspense fallback={<LoadingState minHeight={320} />}>
              <Outlet />
            </Suspense>
          </Box>
          <Footer />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
