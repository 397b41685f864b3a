import { message } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { CANCELLATION_DAYS, daysSinceIssue, iadeProfile, returnRoute } from "./returns.ts";

/** 2026-11-28 10:00 in Istanbul. */
const now = new Date("2026-11-28T07:00:00Z");

describe("returnRoute: the decision table of the README (Returns)", () => {
  it("days are counted on Istanbul's calendar", () => {
    expect(daysSinceIssue("2026-11-28", now)).toBe(0);
    expect(daysSinceIssue("2026-11-20", now)).toBe(8);
    // 23:30 UTC on the 27th is already the 28th in Istanbul.
    expect(daysSinceIssue("2026-11-20", new Date("2026-11-27T23:30:00Z"))).toBe(8);
    expect(daysSinceIssue("2026-11-20", new Date("2026-11-27T20:30:00Z"))).toBe(7);
  });

  it("an e-Arşiv within its 8 days is cancelled, whoever the buyer", () => {
    for (const buyerIsCompany of [false, true])
      for (const issueDate of ["2026-11-28", "2026-11-20"])
        expect(
          returnRoute(
            { profile: "EARSIVFATURA", issueDate, buyerIsEInvoiceUser: false, buyerIsCompany },
            now,
          ),
        ).toEqual({ route: "cancel", by: "seller", reasonKey: "einvoice.doc.return.cancelWithinPeriod" });
    expect(CANCELLATION_DAYS).toBe(8);
  });

  it("after the period: a consumer issues nothing (gider pusulası), a company issues the IADE", () => {
    const late = { profile: "EARSIVFATURA" as const, issueDate: "2026-11-19", buyerIsEInvoiceUser: false };
    expect(returnRoute(late, now)).toEqual({
      route: "none",
      reasonKey: "einvoice.doc.return.consumerAfterPeriod",
    });
    expect(returnRoute({ ...late, buyerIsCompany: true }, now)).toEqual({
      route: "iade",
      by: "buyer",
      reasonKey: "einvoice.doc.return.companyBuyerIssues",
    });
    // A buyer who has since registered for e-Fatura returns by an e-Fatura IADE.
    expect(returnRoute({ ...late, buyerIsEInvoiceUser: true }, now)).toMatchObject({
      route: "iade",
      by: "buyer",
      profile: "TEMELFATURA",
    });
  });

  it("an e-Fatura's return is the buyer's IADE, as TEMELFATURA (never TICARIFATURA), at any age", () => {
    for (const profile of ["TEMELFATURA", "TICARIFATURA"] as const)
      for (const issueDate of ["2026-11-27", "2026-01-02"])
        expect(returnRoute({ profile, issueDate, buyerIsEInvoiceUser: true }, now)).toEqual({
          route: "iade",
          by: "buyer",
          profile: "TEMELFATURA",
          reasonKey: "einvoice.doc.return.buyerIssuesIade",
        });
    expect(iadeProfile("TICARIFATURA")).toBe("TEMELFATURA");
    expect(iadeProfile("TEMELFATURA")).toBe("TEMELFATURA");
    expect(iadeProfile("EARSIVFATURA")).toBe("EARSIVFATURA");
  });

  it("every reason has its Turkish text (and a translation in each catalogue)", () => {
    const keys = [
      returnRoute({ profile: "EARSIVFATURA", issueDate: "2026-11-27", buyerIsEInvoiceUser: false }, now),
      returnRoute({ profile: "EARSIVFATURA", issueDate: "2026-10-01", buyerIsEInvoiceUser: false }, now),
      returnRoute(
        {
          profile: "EARSIVFATURA",
          issueDate: "2026-10-01",
          buyerIsEInvoiceUser: false,
          buyerIsCompany: true,
        },
        now,
      ),
      returnRoute({ profile: "TEMELFATURA", issueDate: "2026-10-01", buyerIsEInvoiceUser: true }, now),
    ].map((r) => r.reasonKey);
    expect(new Set(keys).size).toBe(4);
    for (const key of keys) {
      expect(message(key)).not.toBe(key);
      expect(message(key, {}, "en")).not.toBe(message(key));
    }
    expect(message("einvoice.doc.return.consumerAfterPeriod")).toContain("gider pusulası");
  });

  it("a partial return is never a cancellation: a consumer's part is a gider pusulası at once", () => {
    const part = {
      profile: "EARSIVFATURA" as const,
      issueDate: "2026-11-27",
      buyerIsEInvoiceUser: false,
      partial: true,
    };
    expect(returnRoute(part, now)).toEqual({
      route: "none",
      reasonKey: "einvoice.doc.return.partialConsumer",
    });
    expect(returnRoute({ ...part, buyerIsCompany: true }, now)).toMatchObject({ route: "iade", by: "buyer" });
    // After the period a part goes as the whole would.
    expect(returnRoute({ ...part, issueDate: "2026-10-01" }, now).reasonKey).toBe(
      "einvoice.doc.return.consumerAfterPeriod",
    );
    expect(message("einvoice.doc.return.partialConsumer")).toContain("gider pusulası");
    expect(message("einvoice.doc.return.partialConsumer", {}, "en")).not.toBe(
      message("einvoice.doc.return.partialConsumer"),
    );
  });

  it("a malformed date is refused", () => {
    expect(() =>
      returnRoute({ profile: "EARSIVFATURA", issueDate: "20.11.2026", buyerIsEInvoiceUser: false }, now),
    ).toThrow("Geçersiz fatura tarihi: 20.11.2026");
  });
});
