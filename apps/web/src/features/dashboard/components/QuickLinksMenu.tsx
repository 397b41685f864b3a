import { ActionIcon, Popover, SimpleGrid, Text, ThemeIcon, Tooltip, UnstyledButton } from "@mantine/core";
import {
  IconApps,
  IconBuildingStore,
  IconCertificate,
  IconDatabase,
  IconSettingsAutomation,
} from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The four quick links (spec section 2); the phone menu lists the same. */
export const QUICK_LINKS = [
  { key: "erp", to: "/settings/api-keys", icon: IconDatabase, color: "blue" },
  { key: "ecommerce", to: "/settings/api-keys", icon: IconBuildingStore, color: "teal" },
  {
    key: "integration",
    to: "/settings/integration/ProductIntegration",
    icon: IconSettingsAutomation,
    color: "grape",
  },
  { key: "licence", to: "/settings/licence", icon: IconCertificate, color: "orange" },
] as const;

/** The header's 'Hızlı Linkler' panel with its four tiles (spec section 2). */
export function QuickLinksMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} width={300} position="bottom-end" shadow="md">
      <Popover.Target>
        <Tooltip label={t("dashboard.quickLinks.title")}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={t("dashboard.quickLinks.title")}
            data-testid="quick-links"
          >
            <IconApps size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} mb="sm">
          {t("dashboard.quickLinks.title")}
        </Text>
        <SimpleGrid cols={2} spacing="xs">
          {QUICK_LINKS.map(({ key, to, icon: Icon, color }) => (
            <UnstyledButton
              key={key}
              component={Link}
              to={to}
              onClick={() => setOpened(false)}
              p="sm"
              style={{
                borderRadius: 8,
                border: "1px solid var(--mantine-color-gray-2)",
                textAlign: "center",
              }}
            >
              <ThemeIcon variant="light" color={color} size={36} radius="md" mx="auto" mb={6} aria-hidden>
                <Icon size={20} />
              </ThemeIcon>
              <Text size="xs" fw={500}>
                {t(`dashboard.quickLinks.${key}`)}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}
