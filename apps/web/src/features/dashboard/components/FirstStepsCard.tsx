import type { DashboardDto } from "@ep/contracts";
import {
  Anchor,
  Badge,
  Card,
  CloseButton,
  Group,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { IconCircleCheckFilled, IconCircleDashed } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useAccount } from "@/features/account/api";
import { useConnections } from "@/features/connections/api";
import { SandboxConnectButton } from "@/features/connections/components/SandboxConnect";
import { type FirstStep, firstSteps, firstStepsStorageKey, requiredDone } from "../first-steps";

const stored = (key: string) => globalThis.localStorage?.getItem(key) === "1";

/**
 * 'İlk adımlar': at the top of a new company's dashboard until the ERP, the shop and a first sync
 * are done (or the user closes it; remembered per company in this browser).
 */
export default function FirstStepsCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const account = useAccount();
  const overview = useConnections();
  const companyId = account.data?.company?.id;
  const [closed, setClosed] = useState(false);
  if (companyId === undefined || !overview.data) return null;
  if (closed || stored(firstStepsStorageKey(companyId, "closed"))) return null;
  const steps = firstSteps({
    overview: overview.data,
    dashboard: data,
    notificationsSeen: stored(firstStepsStorageKey(companyId, "notificationsSeen")),
  });
  if (requiredDone(steps)) return null;
  const close = () => {
    localStorage.setItem(firstStepsStorageKey(companyId, "closed"), "1");
    setClosed(true);
  };
  return (
    <Card data-testid="first-steps" withBorder>
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb={4}>
        <Title order={2} fz="lg" fw={600} style={{ minWidth: 0 }}>
          {t("dashboard.firstSteps.title")}
        </Title>
        {/* The count keeps its width: in a nowrap row a badge would shrink to an empty pill. */}
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          <Badge variant="light" data-testid="first-steps-progress">
            {t("dashboard.firstSteps.progress", {
              done: steps.filter((s) => s.done).length,
              total: steps.length,
            })}
          </Badge>
          <CloseButton aria-label={t("dashboard.firstSteps.close")} onClick={close} />
        </Group>
      </Group>
      {/* Under the title row, across the card's whole width (beside the badge it was a narrow column on a phone). */}
      <Text size="sm" c="dimmed" mb="sm">
        {t("dashboard.firstSteps.intro")}
      </Text>
      <Stack gap="sm" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {steps.map((step) => (
          <StepRow key={step.id} step={step} />
        ))}
      </Stack>
    </Card>
  );
}

function StepRow({ step }: { step: FirstStep }) {
  const { t } = useTranslation();
  const text = t(`dashboard.firstSteps.${step.text.key}` as "dashboard.firstSteps.title", step.text.values);
  return (
    <Group
      component="li"
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      data-testid={`first-step-${step.id}`}
      data-done={step.done}
    >
      <ThemeIcon variant="transparent" color={step.done ? "green" : "gray"} size={24} aria-hidden>
        {step.done ? <IconCircleCheckFilled size={22} /> : <IconCircleDashed size={22} />}
      </ThemeIcon>
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Text size="sm" fw={600} td={step.done ? "line-through" : undefined}>
            {t(`dashboard.firstSteps.names.${step.id}`)}
          </Text>
          <VisuallyHidden>
            {t(step.done ? "dashboard.firstSteps.stepDone" : "dashboard.firstSteps.stepOpen")}
          </VisuallyHidden>
          {step.optional && (
            <Badge size="xs" variant="outline" color="gray">
              {t("dashboard.firstSteps.optional")}
            </Badge>
          )}
        </Group>
        <Text size="sm" c={step.done ? "dimmed" : undefined}>
          {text}
        </Text>
        {(step.link || step.sandbox) && (
          <Group gap="sm">
            {step.link && (
              <Anchor component={Link} to={step.link.to} size="sm" fw={600}>
                {t(`dashboard.firstSteps.links.${step.link.label}` as "dashboard.firstSteps.links.open")}
              </Anchor>
            )}
            {step.sandbox && <SandboxConnectButton compact />}
          </Group>
        )}
      </Stack>
    </Group>
  );
}
