import { Button, Center, Paper, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Logo } from "@/components/brand/Logo";

type Props = { code: string; title: string; text: string };

/** A full-page error: code, title, a sentence and the way back home. */
export function ErrorLayout({ code, title, text }: Props) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" bg="#f5f8fa" p="md" component="main">
      <Stack align="center" gap="xl" w="100%" maw={520}>
        <Logo />
        <Paper shadow="sm" p={{ base: "xl", sm: 48 }} w="100%" ta="center">
          <Stack align="center" gap="md">
            <Text fz={72} fw={800} c="brand.8" lh={1} aria-hidden>
              {code}
            </Text>
            <Title order={1} fz={26} fw={700}>
              {title}
            </Title>
            <Text c="dimmed">{text}</Text>
            <Button component={Link} to="/" size="md" mt="sm">
              {t("common.backToHome")}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
