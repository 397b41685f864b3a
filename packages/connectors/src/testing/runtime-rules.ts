/**
 * Runtime rules: what a vendor's schema cannot say but its changelog, docs or live code do — a directive
 * made mandatory from a version on, a header, a field length from a facet, a narrowed value set, a side
 * effect a write must carry out (a generator advanced), a required call sequence. Each rule is data with
 * its sources, so `VERIFIED.md` can list it and a test can prove the list is complete.
 *
 * One rule list per connector (`<system>/judge/rules.ts`) serves both halves of conformance:
 * - the judge applies it to every recorded request (`judgeWithRules`, beside the schema judge);
 * - the emulator refuses what it refuses (`RuleGate`), in the vendor's own error shape.
 * A rule is generic in what it checks (`S`): a recorded HTTP request by default, or an SQL statement,
 * a SOAP envelope, a database transaction — whatever the connector's judge sees.
 */

import { type ConformanceReport, judgeRequests, type RecordedRequest, type RequestJudge } from "./recorder";

export type RuntimeRuleKind =
  | "required-directive"
  | "required-header"
  | "version-dated"
  | "facet"
  | "value-set"
  | "write-side-effect"
  | "required-sequence"
  /** What a database's binder refuses that its grammar takes (SQL Server's 1033, a CTE's place). */
  | "dialect";

/** Where a rule comes from: a page, changelog entry, SDK file or public repository (path @ commit). */
export interface RuleSource {
  kind: "vendor-changelog" | "vendor-doc" | "vendor-schema" | "official-sdk" | "public-code";
  /** URL, or `owner/repo@commit:path` for code. */
  ref: string;
  /** The sentence (paraphrased or a short quote) the rule rests on. */
  says: string;
}

export interface RuntimeRule<S = RecordedRequest> {
  /** Stable id, e.g. `shopify.idempotent-inventory`; VERIFIED.md names it. */
  id: string;
  kind: RuntimeRuleKind;
  /** One sentence, English (developers read it). */
  description: string;
  /** At least one; two independent ones where they exist. */
  sources: RuleSource[];
  /** API version from which the rule holds (version-dated rules), for the reader; `check` decides. */
  since?: string;
  /**
   * Where sources disagree, the side of the disagreement this rule plays (e.g. `"docs"` / `"sdk"`).
   * Rules without a side always apply; with `{ side }` given, only matching sided rules apply as well.
   */
  side?: string;
  /**
   * What is wrong with `subject` under this rule (empty = complies). `earlier` holds the subjects seen
   * before it, oldest first (sequence rules read it; most rules ignore it).
   */
  check(subject: S, earlier: readonly S[]): string[];
}

export interface RuleViolation {
  rule: string;
  kind: RuntimeRuleKind;
  problems: string[];
}

export interface RuleOptions {
  /** Which side of a disagreement to play (sided rules of other sides are skipped). */
  side?: string;
}

function applies<S>(rule: RuntimeRule<S>, opts: RuleOptions): boolean {
  return rule.side === undefined || rule.side === opts.side;
}

/** Every rule `subject` breaks, in rule order. */
export function applyRuntimeRules<S>(
  rules: readonly RuntimeRule<S>[],
  subject: S,
  earlier: readonly S[] = [],
  opts: RuleOptions = {},
): RuleViolation[] {
  const out: RuleViolation[] = [];
  for (const rule of rules) {
    if (!applies(rule, opts)) continue;
    const problems = rule.check(subject, earlier);
    if (problems.length > 0) out.push({ rule: rule.id, kind: rule.kind, problems });
  }
  return out;
}

/** `[rule id] problem` lines, the form judges and emulators report. */
export function violationMessages(violations: readonly RuleViolation[]): string[] {
  return violations.flatMap((v) => v.problems.map((p) => `[${v.rule}] ${p}`));
}

/**
 * The schema judge plus the runtime rules over recorded requests, in order (sequence rules see what came
 * before). A request the schema judge does not know still fails as unknown.
 */
export function judgeWithRules(
  requests: RecordedRequest[],
  judge: RequestJudge,
  rules: readonly RuntimeRule<RecordedRequest>[],
  opts: RuleOptions = {},
): ConformanceReport {
  const earlier: RecordedRequest[] = [];
  return judgeRequests(requests, (r) => {
    const verdict = judge(r);
    const broken = violationMessages(applyRuntimeRules(rules, r, earlier, opts));
    earlier.push(r);
    if (!verdict) return undefined;
    return { operation: verdict.operation, problems: [...verdict.problems, ...broken] };
  });
}

/**
 * The emulator's half: checks each subject as it arrives (keeping the history sequence rules need) and
 * turns the first violation into the vendor's error answer. `refused` counts refusals for the report.
 */
export class RuleGate<S, E> {
  private readonly seen: S[] = [];
  refused = 0;

  constructor(
    private readonly rules: readonly RuntimeRule<S>[],
    /** The vendor's error shape for a violation (status, body …). */
    private readonly answer: (v: RuleViolation, subject: S) => E,
    private readonly opts: RuleOptions = {},
    /** History kept for sequence rules (bounded like the recorder). */
    private readonly maxHistory = 2_000,
  ) {}

  /** The error to answer with, or undefined when every rule is kept (the subject is then remembered). */
  check(subject: S): E | undefined {
    const [first] = applyRuntimeRules(this.rules, subject, this.seen, this.opts);
    if (first) {
      this.refused++;
      return this.answer(first, subject);
    }
    this.seen.push(subject);
    if (this.seen.length > this.maxHistory) this.seen.shift();
    return undefined;
  }

  /** Plays the other side of a disagreement (the contract suite runs both). */
  playSide(side: string | undefined): void {
    this.opts.side = side;
  }

  reset(): void {
    this.seen.length = 0;
    this.refused = 0;
  }
}

/** Rule ids a VERIFIED.md does not mention (a test asserts none, so the document cannot fall behind). */
export function rulesMissingFrom(markdown: string, rules: readonly { id: string }[]): string[] {
  return rules.filter((r) => !markdown.includes(r.id)).map((r) => r.id);
}

/** Rules with no source, or with a source lacking `ref`/`says` (a test asserts none). */
export function unsourcedRules<S>(rules: readonly RuntimeRule<S>[]): string[] {
  return rules
    .filter((r) => r.sources.length === 0 || r.sources.some((s) => !s.ref.trim() || !s.says.trim()))
    .map((r) => r.id);
}

/** The items of a request that are `bad`, each named by its `key` field: `"{key}: {problem}"`. */
export function itemProblems(
  items: readonly Record<string, unknown>[],
  key: string,
  bad: (item: Record<string, unknown>) => boolean,
  problem: string,
): string[] {
  return items.filter(bad).map((i) => `${String(i[key])}: ${problem}`);
}

/** A marketplace price item whose list price is below its sale price (equal is allowed). */
export const listPriceBelowSale = (i: Record<string, unknown>): boolean =>
  typeof i.listPrice === "number" && typeof i.salePrice === "number" && i.listPrice < i.salePrice;
