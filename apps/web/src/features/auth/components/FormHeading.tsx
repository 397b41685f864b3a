import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** Title and one line under it, centred, at the top of each sign-in card. */
export function FormHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={6} align="center" mb="xl" ta="center">
      <Title order={1} fz={24} fw={700} c="dark.7">
        {title}
      </Title>
      {children && (
        <Text c="dimmed" fz="sm" component="div">
          {children}
        </Text>
      )}
    </Stack>
  );
}
