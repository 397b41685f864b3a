import { Badge } from "@mantine/core";
import { useTicketCount } from "../api";

/** The side menu's count of tickets answered by support (status 2). */
export function TicketCountBadge() {
  const count = useTicketCount();
  const n = Math.max(0, count.data ?? 0);
  if (n === 0) return null;
  return (
    <Badge size="sm" circle color="blue" data-testid="ticket-menu-count">
      {n}
    </Badge>
  );
}
