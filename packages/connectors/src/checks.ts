/**
 * What each connector adds to the generic connection check (./sdk/check.ts): one line per connector
 * with data of its own (metered call plans, answer rules). The others are checked by the model's rules.
 */

import { diaCheck } from "./dia/check";
import { isbasiCheck } from "./logo-isbasi/check";
import { nebimCheck } from "./nebim/check";
import type { ConnectorCheckSpec } from "./sdk/check";

const SPECS: ConnectorCheckSpec[] = [diaCheck, isbasiCheck, nebimCheck];

const FOLDERS: Record<string, string> = {
  "dynamics-ax-rest": "dynamics-fo",
  "uyumsoft-portal": "uyumsoft",
  "logo-tiger": "logo",
};

/** The check data of a system (always one: the generic check needs only the system name). */
export function checkSpecOf(system: string): ConnectorCheckSpec {
  const found = SPECS.find((s) => s.system === system);
  const verified = `packages/connectors/src/${FOLDERS[system] ?? system}/VERIFIED.md`;
  return { verified, ...found, system };
}
