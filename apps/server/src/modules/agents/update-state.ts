import type { AgentRow } from "./schema.ts";

/** An update the agent started but never reported done or failed stops showing after this. */
const UPDATING_SHOWN_MS = 10 * 60_000;

/** "Güncelleniyor" in the panel: the agent said it is installing a version it does not run yet. */
export const agentUpdating = (row: AgentRow, now: Date) =>
  row.updatingTo !== null &&
  row.updatingTo !== row.version &&
  !!row.updatingSince &&
  now.getTime() - row.updatingSince.getTime() < UPDATING_SHOWN_MS;
