import { Box, Center, Flex, List, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { Logo } from "@/components/brand/Logo";
import { LoadingState } from "@/components/feedback/LoadingState";
import classes from "./auth.module.css";

/** Signed-out screens: the brand panel beside a card holding the form. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <Flex mih="100dvh" direction={{ base: "column", lg: "row" }} className={classes.root}>
      <Box visibleFrom="lg" className={classes.brand} w={{ lg: "42%" }} p={64}>
        <Stack gap="xl" justify="center" h="100%" maw={480} mx="auto">
          <Logo variant="light" size="lg" />
          <Title order={2} c="white" fz={30} fw={700} lh={1.25}>
            {t("app.tagline")}
          </Title>
          <Text c="white" opacity={0.85} fz="md">
            {t("app.description")}
          </Text>
          <List
            spacing="sm"
            c="white"
            icon={
              <ThemeIcon color="white" variant="transparent" size={22}>
                <IconCircleCheck size={20} />
              </ThemeIcon>
            }
          >
            <List.Item>{t("app.features.sync")}</List.Item>
            <List.Item>{t("app.features.orders")}</List.Item>
            <List.Item>{t("app.features.reports")}</List.Item>
          </List>
        </Stack>
      </Box>
      <Center flex={1} p={{ base: "md", sm: "xl" }} component="main">
        <Stack w="100%" maw={520} gap="lg">
          <Center hiddenFrom="lg">
            <Logo />
          </Center>
          <Paper shadow="sm" p={{ base: "lg", sm: 40 }} w="100%">
            <Suspense fallback={<LoadingState minHeight={360} />}>
              <Outlet />
            </Suspense>
          </Paper>
        </Stack>
      </Center>
    </Flex>
  );
}
