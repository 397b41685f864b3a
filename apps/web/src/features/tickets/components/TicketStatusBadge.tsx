import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { TICKET_STATUS_COLORS } from "../status";

/** 'Açık' / 'Cevap Bekliyor' / 'Cevaplandı' / 'Kapatıldı' in the spec's colours. */
export function TicketStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = String(status) as "0" | "1" | "2" | "3";
  return (
    <Badge
      variant="light"
      color={TICKET_STATUS_COLORS[status] ?? "gray"}
      data-testid="ticket-status"
      data-status={status}
    >
      {t(`tickets.status.${key}`)}
    </Badge>
  );
}
