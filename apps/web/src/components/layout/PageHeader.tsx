import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

type Crumb = { label: string; to?: string };
type Props = { title: string; description?: string; breadcrumbs?: Crumb[]; actions?: ReactNode };

/** The title row at the top of each panel page, with breadcrumbs. */
export function PageHeader({ title, description, breadcrumbs, actions }: Props) {
  const { t } = useTranslation();
  const crumbs: Crumb[] = [{ label: t("common.home"), to: "/dashboard" }, ...(breadcrumbs ?? [])];
  return (
    <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={4}>
        <Title order={1} fz={22} fw={600} c="dark.7">
          {title}
        </Title>
        <Breadcrumbs separator="·" fz="sm" c="dimmed" separatorMargin={6}>
          {crumbs.map((c) =>
            c.to ? (
              <Anchor key={c.label} component={Link} to={c.to} size="sm" c="dimmed">
                {c.label}
              </Anchor>
            ) : (
              <Text key={c.label} size="sm" c="dimmed">
                {c.label}
              </Text>
            ),
          )}
          <Text size="sm" c="dark.4">
            {title}
          </Text>
        </Breadcrumbs>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}
