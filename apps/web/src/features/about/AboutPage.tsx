import { Anchor, Card, List, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/PageHeader";

const ITEMS = ["what1", "what2", "what3", "what4"] as const;

/** /about: what the panel is for, linked from the footer (spec section 2). */
export default function AboutPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("about.title")} />
      <Card maw={760}>
        <Stack gap="md">
          <Text>{t("about.lead")}</Text>
          <Title order={2} fz="lg" fw={600}>
            {t("about.whatTitle")}
          </Title>
          <List spacing="xs">
            {ITEMS.map((key) => (
              <List.Item key={key}>{t(`about.${key}`)}</List.Item>
            ))}
          </List>
          <Title order={2} fz="lg" fw={600}>
            {t("about.helpTitle")}
          </Title>
          <Text>
            {t("about.help")}{" "}
            <Anchor component={Link} to="/tickets/create">
              {t("about.helpLink")}
            </Anchor>
          </Text>
        </Stack>
      </Card>
    </>
  );
}
