import { describe, expect, it } from "vitest";
import type { ApiVersionPin } from "../sdk/version-pin";
import { versionPinStatus } from "../sdk/version-pin";
import type { RecordedRequest } from "./recorder";
import {
  applyRuntimeRules,
  judgeWithRules,
  RuleGate,
  type RuntimeRule,
  rulesMissingFrom,
  unsourcedRules,
} from "./runtime-rules";
import { expectPinnedVersionSupported } from "./version-pin";

const req = (path: string, headers: Record<string, string> = {}): RecordedRequest => ({
  at: 0,
  method: "POST",
  path,
  query: {},
  headers,
  body: {},
});

const needsHeader: RuntimeRule = {
  id: "toy.header",
  kind: "required-header",
  description: "Every call carries X-Toy.",
  sources: [{ kind: "vendor-doc", ref: "https://toy.example/docs", says: "send X-Toy" }],
  check: (r) => (r.headers["x-toy"] ? [] : ["X-Toy header missing"]),
};
const loginFirst: RuntimeRule = {
  id: "toy.login-first",
  kind: "required-sequence",
  description: "Nothing before /login.",
  sources: [{ kind: "public-code", ref: "someone/toy@abc:client.ts", says: "logs in first" }],
  check: (r, earlier) =>
    r.path === "/login" || earlier.some((e) => e.path === "/login") ? [] : ["called before /login"],
};
const sided = (side: string, limit: number): RuntimeRule => ({
  id: `toy.limit-${side}`,
  kind: "facet",
  description: `path at most ${limit} chars`,
  side,
  sources: [{ kind: "vendor-doc", ref: side, says: String(limit) }],
  check: (r) => (r.path.length > limit ? [`path over ${limit}`] : []),
});

describe("runtime rules", () => {
  it("the judge applies every rule to every recorded request, with the history sequence rules need", () => {
    const known = () => ({ operation: "toy", problems: [] });
    const good = judgeWithRules([req("/login", { "x-toy": "1" }), req("/a", { "x-toy": "1" })], known, [
      needsHeader,
      loginFirst,
    ]);
    expect(good.failures).toEqual([]);
    const bad = judgeWithRules([req("/a"), req("/login", { "x-toy": "1" })], known, [
      needsHeader,
      loginFirst,
    ]);
    expect(bad.failures).toHaveLength(1);
    expect(bad.failures[0]?.problems).toEqual([
      "[toy.header] X-Toy header missing",
      "[toy.login-first] called before /login",
    ]);
    // A request the schema judge does not know stays unknown, whatever the rules say.
    expect(judgeWithRules([req("/x")], () => undefined, []).failures[0]?.problems).toEqual([
      "unknown to the judge",
    ]);
  });

  it("the emulator gate answers the first violation in the vendor's shape and counts it; sides switch", () => {
    const gate = new RuleGate(
      [needsHeader, sided("docs", 3), sided("sdk", 5)],
      (v) => ({ status: 400, code: v.rule }),
      {
        side: "docs",
      },
    );
    expect(gate.check(req("/abcd", { "x-toy": "1" }))).toEqual({ status: 400, code: "toy.limit-docs" });
    gate.playSide("sdk");
    expect(gate.check(req("/abcd", { "x-toy": "1" }))).toBeUndefined();
    expect(gate.check(req("/a"))).toEqual({ status: 400, code: "toy.header" });
    expect(gate.refused).toBe(2);
    // Without a side, sided rules are skipped and only the undisputed ones apply.
    expect(applyRuntimeRules([sided("docs", 1)], req("/abc"))).toEqual([]);
  });

  it("VERIFIED.md must name every rule and every rule must name its source", () => {
    expect(rulesMissingFrom("rules: toy.header", [needsHeader, loginFirst])).toEqual(["toy.login-first"]);
    expect(unsourcedRules([needsHeader, { ...loginFirst, sources: [] }])).toEqual(["toy.login-first"]);
  });
});

describe("version pin", () => {
  const pin: ApiVersionPin = {
    system: "toy",
    api: "Toy Admin API",
    version: "2026-07",
    endOfSupport: "2027-07-01",
    source: "https://toy.example/versions",
  };

  it("passes while supported and fails in Turkish and English once past end of support", () => {
    expect(() => expectPinnedVersionSupported(pin, new Date("2027-07-01T20:00:00Z"))).not.toThrow();
    expect(versionPinStatus(pin, new Date("2027-06-01T00:00:00Z")).daysLeft).toBe(30);
    expect(() => expectPinnedVersionSupported(pin, new Date("2027-07-02T00:00:00Z"))).toThrow(
      /desteği 2027-07-01 tarihinde bitti.*reached its vendor's end of support on 2027-07-01/,
    );
  });

  it("a pin without a date must say why", () => {
    expect(versionPinStatus({ ...pin, endOfSupport: null }).ok).toBe(false);
    expect(versionPinStatus({ ...pin, endOfSupport: null, noDateReason: "on-site database" }).ok).toBe(true);
  });
});
