import {
  type Icon,
  IconChartBar,
  IconLayoutDashboard,
  IconMessage2Question,
  IconPackages,
  IconSettings,
  IconShoppingCart,
} from "@tabler/icons-react";
import type { ParseKeys } from "i18next";
import type { ComponentType } from "react";
import { TicketCountBadge } from "@/features/tickets/components/TicketCountBadge";

export type NavItem = {
  to: string;
  label: ParseKeys<"translation">;
  icon: Icon;
  /** Optional count shown on the right (e.g. tickets awaiting the customer). */
  badge?: ComponentType;
};

/**
 * The side menu (spec section 2), in order. A screen that lands adds its one line here:
 * product integration, order integration, reports and ticket support come with later issues.
 */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: "/dashboard", label: "menu.dashboard", icon: IconLayoutDashboard },
  { to: "/integration/product", label: "integration.menu.product", icon: IconPackages },
  { to: "/integration/order", label: "integration.menu.order", icon: IconShoppingCart },
  { to: "/reports", label: "reports.title", icon: IconChartBar },
  { to: "/settings", label: "menu.settings", icon: IconSettings },
  { to: "/tickets", label: "tickets.menu", icon: IconMessage2Question, badge: TicketCountBadge },
];
