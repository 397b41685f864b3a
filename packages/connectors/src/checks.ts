/**
 * What each connector adds to the generic connection check (./sdk/check.ts): one line per connector
 * with its call plan (sign-in, shared lists, reads it answers itself) and its own answer rules.
 */

import { diaCheck } from "./dia/check";
import { axCheck } from "./dynamics-ax/check";
import { d365Check } from "./dynamics-fo/check";
import { entegraCheck } from "./entegra/check";
import { ideasoftCheck } from "./ideasoft/check";
import { ikasCheck } from "./ikas/check";
import { jetstokCheck } from "./jetstok/check";
import { isbasiCheck } from "./logo-isbasi/check";
import { kozaCheck } from "./luca-koza/check";
import { mikroCheck } from "./mikro/check";
import { nebimCheck } from "./nebim/check";
import { netsisCheck } from "./netsis/check";
import type { ConnectorCheckSpec } from "./sdk/check";
import { sentosCheck } from "./sentos/check";
import { shopierCheck } from "./shopier/check";
import { shopifyCheck } from "./shopify/check";
import { sopyoCheck } from "./sopyo/check";
import { tsoftCheck } from "./tsoft/check";
import { uyumsoftCheck } from "./uyumsoft/check";

export const CHECK_SPECS: readonly ConnectorCheckSpec[] = [
  diaCheck,
  axCheck,
  d365Check,
  entegraCheck,
  ideasoftCheck,
  ikasCheck,
  jetstokCheck,
  isbasiCheck,
  kozaCheck,
  mikroCheck,
  nebimCheck,
  netsisCheck,
  sentosCheck,
  shopierCheck,
  shopifyCheck,
  sopyoCheck,
  tsoftCheck,
  uyumsoftCheck,
];

const FOLDERS: Record<string, string> = {
  "dynamics-ax-rest": "dynamics-fo",
  "uyumsoft-portal": "uyumsoft",
  "logo-tiger": "logo",
};

/**
 * The check data of a system (always one: the generic check needs only the system name), its sign-in
 * calls counted for this login when they depend on it.
 */
export function checkSpecOf(system: string, credentials?: Record<string, string>): ConnectorCheckSpec {
  const found = CHECK_SPECS.find((s) => s.system === system);
  const verified = `packages/connectors/src/${FOLDERS[system] ?? system}/VERIFIED.md`;
  const setupCalls =
    credentials && found?.setupCallsFor ? found.setupCallsFor(credentials) : found?.setupCalls;
  return { verified, ...found, setupCalls, system };
}
