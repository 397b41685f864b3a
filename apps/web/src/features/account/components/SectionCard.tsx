import { Card, Divider, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A titled card holding one group of a settings page. */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title}>
      <Card.Section px="lg" py="md">
        <Title order={2} fz="lg" fw={600}>
          {title}
        </Title>
      </Card.Section>
      <Divider color="gray.2" />
      <Card.Section p="lg">{children}</Card.Section>
    </Card>
  );
}
