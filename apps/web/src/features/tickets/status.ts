/** Spec section 4: each ticket status with its colour (success, warning, primary, success). */
export const TICKET_STATUS_COLORS: Record<number, string> = {
  0: "green",
  1: "yellow",
  2: "blue",
  3: "green",
};
export const TICKET_STATUS_VALUES = [0, 1, 2, 3] as const;
