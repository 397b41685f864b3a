import { SUPPORT_ANSWERED_BY, type Ticket } from "@ep/contracts";
import { Avatar, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The account holder's first initial, and an 'F' circle once support has answered (spec section 2). */
export function TicketAvatars({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const supportAnswered = ticket.ticketReplies.some((r) => r.answeredBy === SUPPORT_ANSWERED_BY);
  const name = `${ticket.account.first_Name} ${ticket.account.last_Name}`.trim();
  return (
    <Avatar.Group spacing="xs">
      <Tooltip label={name} withArrow>
        <Avatar size="sm" radius="xl" color="blue" aria-label={name}>
          {ticket.account.first_Name.charAt(0).toLocaleUpperCase("tr")}
        </Avatar>
      </Tooltip>
      {supportAnswered && (
        <Tooltip label={t("tickets.drawer.supportTeam")} withArrow>
          <Avatar
            size="sm"
            radius="xl"
            color="orange"
            aria-label={t("tickets.drawer.supportTeam")}
            data-testid="ticket-support-avatar"
          >
            F
          </Avatar>
        </Tooltip>
      )}
    </Avatar.Group>
  );
}
