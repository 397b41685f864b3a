import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from "@mantine/core";
import {
  type Icon,
  IconAdjustmentsHorizontal,
  IconBuilding,
  IconBuildingWarehouse,
  IconCertificate,
  IconChevronRight,
  IconHistory,
  IconPlugConnected,
  IconShieldLock,
  IconUser,
} from "@tabler/icons-react";
import type { ParseKeys } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/PageHeader";

type SettingsCard = {
  to: string;
  title: ParseKeys<"translation">;
  text: ParseKeys<"translation">;
  icon: Icon;
};

/** The settings overview; later issues add their settings screens here, one line each. */
const CARDS: readonly SettingsCard[] = [
  {
    to: "/settings/api-keys",
    title: "connections.cards.apiKeys.title",
    text: "connections.cards.apiKeys.text",
    icon: IconPlugConnected,
  },
  {
    to: "/settings/integration/ProductIntegration",
    title: "connections.cards.integration.title",
    text: "connections.cards.integration.text",
    icon: IconAdjustmentsHorizontal,
  },
  {
    to: "/settings/stock-locations",
    title: "connections.cards.stockLocations.title",
    text: "connections.cards.stockLocations.text",
    icon: IconBuildingWarehouse,
  },
  {
    to: "/settings/account/details",
    title: "settings.cards.account.title",
    text: "settings.cards.account.text",
    icon: IconUser,
  },
  {
    to: "/settings/company",
    title: "settings.cards.company.title",
    text: "settings.cards.company.text",
    icon: IconBuilding,
  },
  {
    to: "/settings/licence",
    title: "settings.cards.licence.title",
    text: "settings.cards.licence.text",
    icon: IconCertificate,
  },
  {
    to: "/settings/privacy",
    title: "privacy.card.title",
    text: "privacy.card.text",
    icon: IconShieldLock,
  },
  {
    to: "/settings/retention",
    title: "retention.card.title",
    text: "retention.card.text",
    icon: IconHistory,
  },
];

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("settings.title")} description={t("settings.subtitle")} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {CARDS.map(({ to, title, text, icon: CardIcon }) => (
          <Card key={to} component={Link} to={to} style={{ textDecoration: "none" }}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Group wrap="nowrap" align="flex-start" gap="md">
                <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
                  <CardIcon size={26} stroke={1.6} />
                </ThemeIcon>
                <Stack gap={4}>
                  <Text fw={600} c="dark.7">
                    {t(title)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t(text)}
                  </Text>
                </Stack>
              </Group>
              <IconChevronRight size={18} color="var(--mantine-color-gray-5)" aria-hidden />
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
