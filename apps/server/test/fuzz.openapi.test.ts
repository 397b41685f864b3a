import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "./harness.ts";
import {
  type Built,
  injectOptions,
  loadOperations,
  pool,
  Sampler,
  turkishMessages,
  variants,
} from "./support/openapi-requests.ts";
import { type SeededCompany, seededCompany } from "./support/seeded-company.ts";

/**
 * Issue 11, "a fuzz suite in the repo": every operation of the OpenAPI document, each parameter
 * and body field replaced in turn by wrong types, NUL bytes, huge and negative numbers, long
 * strings and extreme dates, plus malformed JSON, malformed multipart and foreign content types.
 * No answer may be 5xx, and every 4xx must carry one of our Turkish messages.
 */
const SUPPORT = { email: "destek.fuzz@example.com", password: "Destek.Parola1" };
/** Calls that would end the session the rest of the suite uses are sent without it. */
const SESSION_ENDING = new Set(["/api/account/logout", "/api/account/login-code"]);
const LONG_POLL = "/api/jobhistory/do-long-polling";

let t: TestApp;
let a: SeededCompany;
let supportToken: string;
beforeAll(async () => {
  t = await startTestApp({
    CAPTCHA: "off",
    // The seeded company has a paired agent that never connects: a request that routes its ERP
    // through it (the fuzz assigns it) answers "agent offline" at once instead of after 30 s.
    AGENT_OFFLINE_WAIT_SECONDS: "0.2",
    SUPPORT_EMAIL: SUPPORT.email,
    SUPPORT_PASSWORD: SUPPORT.password,
  });
  a = await seededCompany(t);
  const login = await call(t.app, "POST", "/api/account/login", { body: SUPPORT, ip: "10.77.0.1" });
  supportToken = login.body.data.token;
}, 120_000);
afterAll(async () => {
  await a?.close();
  await t?.close();
});

type Planned = { built: Built; headers: Record<string, string>; op: string };

describe("generated requests over every endpoint", () => {
  it("never answer 5xx, and every 4xx carries a Turkish message", async () => {
    const { operations, doc } = await loadOperations(t.app);
    expect(operations.length).toBeGreaterThanOrEqual(70);
    const planned: Planned[] = [];
    for (const op of operations) {
      const ids = (field: string) => a.idFor(op.path, field);
      const sampler = new Sampler(doc, ids);
      const signedIn = !SESSION_ENDING.has(op.path.toLowerCase());
      const token = op.path.startsWith("/api/support") ? supportToken : a.token;
      const headers: Record<string, string> = signedIn ? { authorization: `Bearer ${token}` } : {};
      let first = true;
      for (const built of variants(op, sampler, ids)) {
        planned.push({ built, headers, op: `${op.method} ${op.path}` });
        // Each operation's valid-looking request once more without a session, and with a forged one.
        if (first) {
          planned.push(
            { built, headers: {}, op: "anonymous" },
            { built, headers: { authorization: "Bearer eyJhbGciOiJub25lIn0.e30." }, op: "forged session" },
          );
          first = false;
        }
      }
    }
    expect(planned.length).toBeGreaterThanOrEqual(10_000);

    const isTurkish = turkishMessages();
    const problems: string[] = [];
    const byStatus = new Map<number, number>();
    const held: Array<Promise<void>> = [];
    const check = (p: Planned, status: number, body: string) => {
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const label = `${p.built.method} ${p.built.url.slice(0, 120)} ${JSON.stringify(p.built.body ?? p.built.raw ?? "").slice(0, 80)}`;
      if (status >= 500) problems.push(`${status} ${label}`);
      else if (status >= 400) {
        let text: unknown;
        try {
          text = JSON.parse(body).message;
        } catch {
          text = undefined;
        }
        if (typeof text !== "string" || !isTurkish(text))
          problems.push(`${status} without a Turkish message (${String(text)}): ${label}`);
      }
    };
    const spent = new Map<string, number>();
    await pool(planned, 8, async (p) => {
      const started = performance.now();
      const sent = t.app.inject(injectOptions(p.built, p.headers)).then((res) => {
        spent.set(p.op, (spent.get(p.op) ?? 0) + performance.now() - started);
        check(p, res.statusCode, res.body);
      });
      if (!p.built.url.toLowerCase().startsWith(LONG_POLL)) return sent;
      // A valid long-poll waits for run events: checked when it answers, without holding the queue.
      const waited = await Promise.race([
        sent.then(() => true),
        new Promise((r) => setTimeout(r, 50, false)),
      ]);
      if (!waited) held.push(sent);
    });
    await Promise.all(held);

    const total = [...byStatus.values()].reduce((s, n) => s + n, 0);
    console.log(
      `fuzz (${t.ctx.database.kind}): ${total} requests over ${operations.length} operations; by status ${JSON.stringify(Object.fromEntries([...byStatus].sort((x, y) => x[0] - y[0])))}`,
    );
    const slowest = [...spent].sort((x, y) => y[1] - x[1]).slice(0, 5);
    console.log(
      `slowest operations (ms, summed): ${slowest.map(([op, ms]) => `${op} ${Math.round(ms)}`).join("; ")}`,
    );
    expect(total).toBe(planned.length);
    expect(problems.slice(0, 30)).toEqual([]);
  }, 300_000);
});
