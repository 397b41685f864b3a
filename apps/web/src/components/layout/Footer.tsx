import { Anchor, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import classes from "./layout.module.css";

/** Page footer: About and Support (/tickets), spec section 2. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Group component="footer" justify="space-between" px="lg" py="md" className={classes.footer}>
      <Text size="sm" c="dimmed">
        {t("footer.copyright", { year: new Date().getFullYear() })}
      </Text>
      <Group gap="md">
        <Anchor component={Link} to="/about" size="sm" c="dimmed">
          {t("about.link")}
        </Anchor>
        <Anchor component={Link} to="/tickets" size="sm" c="dimmed">
          {t("tickets.footerSupport")}
        </Anchor>
      </Group>
    </Group>
  );
}
