/**
 * Sentos's runtime rules (src/testing/runtime-rules.ts), each with its sources (VERIFIED.md lists them).
 * The limits are the only rules a request shape cannot show. Public sources read "GET 2 per minute" two
 * ways, so both are rules with a `side`: `identical` (per URL) and `all` (every GET shares one counter).
 * The emulator plays either (`SentosEmulatorOptions.getLimit`) and the contract suite runs both.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";
import { SENTOS_IDENTICAL_GETS_PER_WINDOW, SENTOS_POSTS_PER_WINDOW } from "../descriptor";
import ruleSources from "./rule-sources.json" with { type: "json" };

/** Where each rule comes from (rule-sources.json: kind, ref, what it says). */
const SRC = ruleSources as Record<keyof typeof ruleSources, RuleSource>;

/** How the service counts GETs against "2 per minute": the two sides of the disagreement. */
export type SentosGetLimitReading = "identical" | "all";

/** The counter key a GET falls under in a reading: its own URL, or one for every GET. */
export function sentosGetCounterKey(reading: SentosGetLimitReading, url: string): string {
  return reading === "all" ? "GET *" : `GET ${url}`;
}

const urlOf = (r: RecordedRequest) =>
  `${r.path}?${new URLSearchParams(r.query as Record<string, string>).toString()}`;

/** Whether `r` would find its counter full: `limit` requests of the same counter in the last window. */
function overLimit(
  r: RecordedRequest,
  earlier: readonly RecordedRequest[],
  windowMs: number,
  limit: number,
  sameCounter: (a: RecordedRequest) => boolean,
): boolean {
  let inWindow = 0;
  for (const e of earlier) if (e.at > r.at - windowMs && e.at <= r.at && sameCounter(e)) inWindow++;
  return inWindow >= limit;
}

/** The rules with their window (one minute at Sentos; the contract test scales it down). */
export function sentosRules(windowMs: number): RuntimeRule[] {
  const getRule = (reading: SentosGetLimitReading, sources: RuleSource[]): RuntimeRule => ({
    id: `sentos.limit.get.${reading}`,
    kind: "required-sequence",
    side: reading,
    description:
      reading === "all"
        ? `At most ${SENTOS_IDENTICAL_GETS_PER_WINDOW} GETs of any URL per window; more are answered 429.`
        : `At most ${SENTOS_IDENTICAL_GETS_PER_WINDOW} GETs of the same URL (path and query) per window; more are answered 429.`,
    sources,
    check: (r, earlier) => {
      if (r.method !== "GET") return [];
      const key = sentosGetCounterKey(reading, urlOf(r));
      const same = (e: RecordedRequest) =>
        e.method === "GET" && sentosGetCounterKey(reading, urlOf(e)) === key;
      return overLimit(r, earlier, windowMs, SENTOS_IDENTICAL_GETS_PER_WINDOW, same)
        ? [`${key}: over ${SENTOS_IDENTICAL_GETS_PER_WINDOW} per ${windowMs} ms`]
        : [];
    },
  });
  return [
    {
      id: "sentos.limit.post",
      kind: "required-sequence",
      description: `At most ${SENTOS_POSTS_PER_WINDOW} POSTs per window; more are answered 429.`,
      sources: [SRC.bridge, SRC.stock_sync],
      check: (r, earlier) =>
        r.method !== "GET" &&
        overLimit(r, earlier, windowMs, SENTOS_POSTS_PER_WINDOW, (e) => e.method !== "GET")
          ? [`POST: over ${SENTOS_POSTS_PER_WINDOW} per ${windowMs} ms`]
          : [],
    },
    getRule("identical", [SRC.bridge, SRC.stock_sync]),
    getRule("all", [SRC.php_client]),
  ];
}

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const SENTOS_VERSION_PIN: ApiVersionPin = {
  system: "sentos",
  api: "Sentos API",
  version: "v1.5",
  endOfSupport: null,
  noDateReason: "Sentos publishes no end of support for its API docs version",
  source: "code id 70268014554 (cites api.sentos.com.tr/docs v1.5)",
};
