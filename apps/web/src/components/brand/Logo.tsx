import { Group, Text, ThemeIcon } from "@mantine/core";
import { IconArrowsExchange } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

type Props = { variant?: "light" | "dark"; size?: "sm" | "md" | "lg" };

/** The product mark and name. */
export function Logo({ variant = "dark", size = "md" }: Props) {
  const { t } = useTranslation();
  const icon = size === "lg" ? 44 : size === "sm" ? 30 : 36;
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon
        size={icon}
        radius="md"
        color={variant === "light" ? "white" : "brand"}
        c={variant === "light" ? "brand.6" : undefined}
        aria-hidden
      >
        <IconArrowsExchange size={icon * 0.6} stroke={2} />
      </ThemeIcon>
      <Text
        fw={700}
        fz={size === "lg" ? 24 : size === "sm" ? 16 : 18}
        c={variant === "light" ? "white" : "dark.7"}
        style={{ letterSpacing: -0.3, whiteSpace: "nowrap" }}
      >
        {t("app.name")}
      </Text>
    </Group>
  );
}
