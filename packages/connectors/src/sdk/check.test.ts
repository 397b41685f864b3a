import { JOB_TYPES } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diaCheck } from "../dia/check";
import { createDiaConnector } from "../dia/connector";
import { diaDescriptor } from "../dia/descriptor";
import { type DiaEmulator, startDiaEmulator } from "../dia/emulator/server";
import { DIA_SERVICES } from "../dia/judge/shapes";
import { CHECK_DRIFTS, driftAnswer } from "../testing/check-drift";
import { testContext } from "../testing/contract";
import { CheckRecorder, operationsFor, plannedCalls, runConnectionCheck } from "./check";
import { judgeItems, redactedShape } from "./check-answers";
import type { TransportFetch } from "./http";
import { InMemoryRateLimitStore } from "./rate-limit";

let emu: DiaEmulator;
beforeAll(async () => {
  emu = await startDiaEmulator({ seed: 11, productCount: 40 });
});
afterAll(() => emu.close());

const ops = operationsFor("erp", JOB_TYPES);

/** DİA's check through `transport`, held to its plan as the server holds a metered system. */
async function checkDia(transport: TransportFetch = fetch, limit?: number) {
  const recorder = new CheckRecorder(transport, "dia", limit ?? plannedCalls(diaCheck, ops));
  const connector = createDiaConnector(
    emu.credentials,
    testContext(new InMemoryRateLimitStore(), undefined, { fetch: recorder.fetch }),
  );
  return runConnectionCheck({
    connector,
    descriptor: diaDescriptor,
    operations: ops,
    jobs: JOB_TYPES,
    spec: diaCheck,
    recorder,
  });
}

/** A transport whose next answer carrying `key` loses it (the vendor's silent change). */
function drifting({ key, within }: { key: string; within: string }): TransportFetch {
  let armed = true;
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const res = await fetch(input, init);
    if (!armed) return res;
    const drifted = driftAnswer(await res.clone().text(), key, within);
    if (drifted === undefined) return res;
    armed = false;
    return new Response(drifted, { status: res.status, headers: res.headers });
  }) as TransportFetch;
}

describe("the connection check", () => {
  it("reads one page of every read the jobs need, all compatible, within the calls it said beforehand", async () => {
    const report = await checkDia();
    expect(report.operations.map((o) => [o.operation, o.status])).toEqual(ops.map((o) => [o, "ok"]));
    expect(report.plannedCalls).toBe(8);
    expect(report.calls).toBe(report.plannedCalls);
    // Never a write: no DİA call of the check is an `_ekle` (the judge's kinds of service).
    const services = emu.recorder.list().map((r) => Object.keys(r.body as object)[0]);
    expect(services.filter((s) => DIA_SERVICES[s!]?.kind === "ekle")).toEqual([]);
    expect(services.length).toBeGreaterThan(0);
  });

  it("finds a drifted answer: the product code gone is 'uyumsuz' on products, naming the rule and a shape without values", async () => {
    const report = await checkDia(drifting(CHECK_DRIFTS.dia!));
    const drifted = report.operations.filter((o) => o.status === "drift");
    expect(drifted.map((o) => o.operation)).toEqual(["products"]);
    const rules = drifted[0]!.differences.map((d) => d.rule);
    expect(rules).toContain("model.product.sku");
    expect(rules).toContain("dia.answer.selected-columns");
    const sample = JSON.stringify(drifted[0]!.differences[0]!.sample);
    expect(sample).not.toMatch(/STK|Tişört|\d{3,}/);
    expect(sample).toContain('"aciklama":"text"');
  });

  it("on a metered system sends no call past its word: a read that does not fit is 'denenemedi'", async () => {
    const before = emu.recorder.list().length;
    const report = await checkDia(fetch, 3);
    expect(emu.recorder.list().length - before).toBe(3);
    expect(report.operations.filter((o) => o.status === "untried").map((o) => o.untriedReason)).toEqual(
      Array(ops.length - 2).fill("budget"),
    );
  });
});

describe("the model's answer rules", () => {
  it("name each field that differs once, with the kind that came", () => {
    const diffs = judgeItems("price", [
      { sku: "A", priceGroup: "1", amount: "12,50", currency: "TL", vatIncluded: true },
      { sku: "undefined", priceGroup: "1", amount: 3, currency: "TRY", vatIncluded: true },
    ]);
    expect(diffs).toEqual([
      { rule: "model.price.amount", field: "amount", expect: "nonNegative", got: "text" },
      { rule: "model.price.currency", field: "currency", expect: "currency", got: "text" },
      { rule: "model.price.sku", field: "sku", expect: "code", got: "text" },
    ]);
    expect(judgeItems("stock", [{ sku: "A", location: "1", qty: 4 }])).toEqual([]);
  });

  it("keep keys and kinds of a sample, never its values", () => {
    expect(redactedShape({ result: [{ code: "X-1", qty: 3, tags: ["a"] }, { code: "Y" }], n: null })).toEqual(
      {
        result: [{ code: "text", qty: "number", tags: ["text"] }],
        n: "missing",
      },
    );
  });
});
