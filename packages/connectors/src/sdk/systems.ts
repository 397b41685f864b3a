/**
 * Every ERP and shop type of the spec (section 3) once: its number, the spec's label and our system key.
 * Descriptors name only their system key (`defineConnector`), the registry lists the types without a
 * connector from here too, so a type's number and label are written in one place.
 */

import type { ConnectorKind } from "./connector";

/** The spec's lists (value: label), with where each system runs (design brief: on-prem ERPs need the agent). */
export const ERP_SYSTEMS: ReadonlyArray<
  readonly [type: number, name: string, system: string, onPrem: boolean]
> = [
  [1, "Nebim", "nebim", true],
  [2, "Netsis", "netsis", true],
  [4, "Logo", "logo", true],
  [11, "Logo Tiger", "logo-tiger", true],
  [5, "Dia", "dia", false],
  [6, "Wolvox", "wolvox", true],
  [10, "WolvoxSDK", "wolvox-sdk", true],
  [7, "Microsoft Dynamics AX", "dynamics-ax", true],
  [17, "Microsoft Dynamics AX Rest API", "dynamics-ax-rest", false],
  [8, "Uyumsoft", "uyumsoft", false],
  [9, "Mikro", "mikro", true],
  [12, "Gizsoft", "gizsoft", true],
  [13, "Zirve", "zirve", true],
  [14, "Nebim Winner", "nebim-winner", true],
  [15, "Eta", "eta", true],
  [16, "Entegra", "entegra", false],
  [18, "UyumsoftPortal", "uyumsoft-portal", false],
  [19, "LucaPortal", "luca-portal", false],
  [20, "Shopier", "shopier", false],
  [21, "Logo Is Basi", "logo-isbasi", false],
  [22, "LucaNet", "luca-net", false],
  [23, "LucaKoza", "luca-koza", false],
  [24, "TrendyolEfaturam", "trendyol-efaturam", false],
];

export const SHOP_SYSTEMS: ReadonlyArray<readonly [type: number, name: string, system: string]> = [
  [1, "IKAS", "ikas"],
  [2, "Ideasoft", "ideasoft"],
  [3, "Sentos", "sentos"],
  [4, "Tsoft", "tsoft"],
  [5, "Shopify", "shopify"],
  [6, "Sopyo", "sopyo"],
  [7, "JetStok", "jetstok"],
];

/**
 * Sales channels beside the shop (issue 37): marketplaces, not in the spec's shop list, so type 0 and not
 * offered at registration; the channel model finds them by their key.
 */
export const SALES_CHANNEL_SYSTEMS: ReadonlyArray<readonly [type: 0, name: string, system: string]> = [
  [0, "Trendyol", "trendyol"],
  [0, "Hepsiburada", "hepsiburada"],
  [0, "N11", "n11"],
  [0, "Amazon Türkiye", "amazon"],
];

/** A system's type number and the spec's label, by its key; an unknown key is a programming error. */
export function systemIdentity(
  kind: ConnectorKind,
  system: string,
): { type: number; name: string; system: string } {
  const row = (kind === "erp" ? ERP_SYSTEMS : [...SHOP_SYSTEMS, ...SALES_CHANNEL_SYSTEMS]).find(
    (s) => s[2] === system,
  );
  if (!row) throw new Error(`no ${kind} system "${system}" in the spec's list`);
  return { type: row[0], name: row[1], system };
}
