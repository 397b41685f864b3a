/**
 * Sentos's runtime rules as data, each with its source (see VERIFIED.md). The limits are the only rules
 * a request shape cannot show; public sources read the GET limit two ways, so both readings are kept and
 * the emulator can play either (`SentosEmulatorOptions.getLimit`).
 */

import { SENTOS_IDENTICAL_GETS_PER_WINDOW, SENTOS_POSTS_PER_WINDOW } from "./descriptor";

/** How the service counts GETs against "2 per minute". */
export type SentosGetLimitReading = "identical" | "all";

export interface SentosLimitRule {
  id: string;
  /** Which requests share one counter. */
  applies: "POST" | "GET same URL" | "GET any URL";
  perWindow: number;
  source: string;
}

export const SENTOS_LIMIT_RULES: Record<"post" | SentosGetLimitReading, SentosLimitRule> = {
  post: {
    id: "sentos.limit.post",
    applies: "POST",
    perWindow: SENTOS_POSTS_PER_WINDOW,
    source: "code id 70268014554 (bridge citing api.sentos.com.tr/docs v1.5); code id 70463971376",
  },
  identical: {
    id: "sentos.limit.get.identical",
    applies: "GET same URL",
    perWindow: SENTOS_IDENTICAL_GETS_PER_WINDOW,
    source: "code id 70268014554 ('ayni GET 2/dk', docs v1.5); code id 70463971376 ('ayni GET 2/dk')",
  },
  all: {
    id: "sentos.limit.get.all",
    applies: "GET any URL",
    perWindow: SENTOS_IDENTICAL_GETS_PER_WINDOW,
    source:
      "code id 66243522487 (PHP client: 'GET 2/dk' on /categories, waits 31 s after a 429); shared/partner-apis/shops.md summary table ('GET 2/min')",
  },
};

/** The counter key a GET falls under in a reading: its own URL, or one for every GET. */
export function sentosGetCounterKey(reading: SentosGetLimitReading, url: string): string {
  return reading === "all" ? "GET *" : `GET ${url}`;
}

/** The requests a rule counts together, by counter (arrival times in ms). */
function counters(
  rule: SentosLimitRule,
  requests: Array<{ method: string; url: string; at: number }>,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of requests) {
    const isGet = r.method === "GET";
    if (rule.applies === "POST" ? isGet : !isGet) continue;
    const key = rule.applies === "GET same URL" ? r.url : "*";
    out.set(key, [...(out.get(key) ?? []), r.at]);
  }
  return out;
}

/** Most arrivals in any window of `windowMs`. */
export function peakPerWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while ((t[hi] ?? 0) - (t[lo] ?? 0) >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/**
 * The limit rules of a reading applied to recorded requests, as the service applies them: each arrival is
 * counted against its counter's accepted arrivals of the last window; one problem per arrival the rule
 * refuses (the service answers it 429), naming the rule and its source.
 */
export function judgeSentosLimits(
  requests: Array<{ method: string; url: string; at: number }>,
  windowMs: number,
  reading: SentosGetLimitReading,
): string[] {
  const problems: string[] = [];
  for (const rule of [SENTOS_LIMIT_RULES.post, SENTOS_LIMIT_RULES[reading]]) {
    for (const [key, times] of counters(rule, requests)) {
      const accepted: number[] = [];
      for (const at of [...times].sort((a, b) => a - b)) {
        while (accepted.length > 0 && (accepted[0] ?? 0) <= at - windowMs) accepted.shift();
        if (accepted.length < rule.perWindow) accepted.push(at);
        else
          problems.push(
            `${rule.id}: ${rule.applies} ${key} at ${at} is over ${rule.perWindow} per window (${rule.source})`,
          );
      }
    }
  }
  return problems;
}
