import type { AgentView } from "@ep/contracts";
import { Badge, Button, Group } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useTranslation } from "react-i18next";
import { errorMessage } from "@/lib/errors";
import { useServeConnection } from "../api";

/**
 * The agents card's "Bağlantı" cell: the connections an agent serves ("ERP · etkin" for the one carrying
 * the calls now, "ERP · yedek" for another machine standing by), and adding it to (or taking it off) the
 * ERP connection, so a second machine can carry on when the first one stops or updates.
 */
export function AgentServes({ agent }: { agent: AgentView }) {
  const { t } = useTranslation();
  const serve = useServeConnection();
  const servesErp = agent.serves.some((s) => s.kind === "erp");
  const onToggle = async () => {
    try {
      const { message } = await serve.mutateAsync({ id: agent.id, kind: "erp", serves: !servesErp });
      notifications.show({ color: "green", message });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error) });
    }
  };
  return (
    <Group gap={4} wrap="nowrap" data-testid={`agent-serves-${agent.id}`}>
      {agent.serves.map((s) => (
        <Badge
          key={s.kind}
          variant="light"
          color={s.active ? "green" : "gray"}
          data-active={s.active}
          style={{ textTransform: "none" }}
        >
          {t(s.active ? "agents.serves.active" : "agents.serves.standby", {
            kind: t(`agents.serves.kind.${s.kind}`),
          })}
        </Badge>
      ))}
      <Button size="compact-xs" variant="subtle" loading={serve.isPending} onClick={onToggle}>
        {t(servesErp ? "agents.serves.leave" : "agents.serves.join")}
      </Button>
    </Group>
  );
}
