import type { Language } from "@ep/contracts";
import { Avatar, Badge, Box, Group, Menu, Text, UnstyledButton, VisuallyHidden } from "@mantine/core";
import {
  IconCertificate,
  IconCheck,
  IconChevronDown,
  IconLanguage,
  IconLogout,
  IconSettings,
  IconUser,
} from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { useSession } from "@/features/auth/session-store";
import { changeLanguage } from "@/i18n";
import classes from "./layout.module.css";

/** The menu's languages: Türkçe is active; English and German come later (spec section 1). */
const MENU_LANGUAGES: readonly {
  lang: Language;
  label: "languages.tr" | "languages.en" | "languages.de";
  available: boolean;
}[] = [
  { lang: "tr", label: "languages.tr", available: true },
  { lang: "en", label: "languages.en", available: false },
  { lang: "de", label: "languages.de", available: false },
];

export function UserMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user, account } = useSession();
  const person = account?.companyUser ?? user;
  const firstName = person?.first_Name ?? "";
  const fullName = [person?.first_Name, person?.last_Name].filter(Boolean).join(" ");
  const initial = firstName.charAt(0).toLocaleUpperCase("tr-TR") || "?";
  const current = MENU_LANGUAGES.find((l) => l.lang === i18n.language) ?? MENU_LANGUAGES[0]!;

  return (
    <Menu width={290} position="bottom-end" shadow="md" radius="md" withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} data-testid="user-menu">
          <Group gap={10} wrap="nowrap">
            <Avatar color="brand" variant="light" radius="md" size={36} aria-hidden>
              {initial}
            </Avatar>
            <Box visibleFrom="sm">
              <Text size="sm" fw={600} lh={1.2}>
                {fullName}
              </Text>
            </Box>
            <IconChevronDown size={14} aria-hidden />
            {/* Named by what it shows plus what it does: an aria-label hid the visible name. */}
            <VisuallyHidden>{t("userMenu.open")}</VisuallyHidden>
          </Group>
        </UnstyledButton>
      </Menu.Target>

      <Menu.Dropdown>
        <Group gap="sm" px="sm" py="xs" wrap="nowrap">
          <Avatar color="brand" radius="md" size={48}>
            {initial}
          </Avatar>
          <Box miw={0}>
            <Group gap={6} wrap="nowrap">
              <Text fw={600} size="sm" truncate>
                {fullName}
              </Text>
              <Badge size="sm" color="green" variant="light">
                {t("userMenu.pro")}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {person?.email}
            </Text>
          </Box>
        </Group>
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings/account/details" leftSection={<IconUser size={16} />}>
          {t("userMenu.profile")}
        </Menu.Item>
        <Menu.Item component={Link} to="/settings/licence" leftSection={<IconCertificate size={16} />}>
          {t("userMenu.licences")}
        </Menu.Item>
        <Menu.Sub position="left-start" offset={4}>
          <Menu.Sub.Target>
            <Menu.Sub.Item
              leftSection={<IconLanguage size={16} />}
              rightSection={
                <Text size="xs" c="dimmed">
                  {t(current.label)}
                </Text>
              }
            >
              {t("userMenu.language")}
            </Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            {MENU_LANGUAGES.map(({ lang, label, available }) => {
              const active = lang === current.lang;
              return (
                <Menu.Item
                  key={lang}
                  disabled={!available}
                  aria-current={active ? "true" : undefined}
                  rightSection={active ? <IconCheck size={14} /> : undefined}
                  onClick={() => {
                    if (available && !active) changeLanguage(lang);
                  }}
                >
                  <Text size="sm" fw={active ? 600 : 400} c={active ? "brand.8" : undefined} span>
                    {t(label)}
                  </Text>
                  {!available && (
                    <Text size="xs" c="dimmed" span ml={6}>
                      {t("common.comingSoon")}
                    </Text>
                  )}
                </Menu.Item>
              );
            })}
          </Menu.Sub.Dropdown>
        </Menu.Sub>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
          {t("userMenu.settings")}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => navigate("/logout")}>
          {t("userMenu.logout")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
