import { Card, Divider, Group, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { HASH_TARGET } from "@/lib/scroll-to-hash";

/**
 * A titled card holding one group of a page: an optional icon before the title, `aside` (badges, a
 * button) at the header's right end, and `anchor` as the id a link's `#anchor` scrolls to.
 */
export function SectionCard({
  title,
  icon,
  aside,
  anchor,
  testId,
  children,
}: {
  title: string;
  icon?: ReactNode;
  aside?: ReactNode;
  anchor?: string;
  testId?: string;
  children: ReactNode;
}) {
  const heading = (
    <Title order={2} fz="lg" fw={600}>
      {title}
    </Title>
  );
  return (
    <Card
      component="section"
      aria-label={title}
      data-testid={testId}
      id={anchor}
      style={anchor ? HASH_TARGET : undefined}
    >
      <Card.Section px="lg" py="md">
        {icon || aside ? (
          <Group justify="space-between">
            <Group gap="xs">
              {icon}
              {heading}
            </Group>
            {aside}
          </Group>
        ) : (
          heading
        )}
      </Card.Section>
      <Divider color="gray.2" />
      <Card.Section p="lg">{children}</Card.Section>
    </Card>
  );
}
