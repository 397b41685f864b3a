import { describe, expect, it } from "vitest";
import { compact, paymentMeansOfText, saleDate } from "./internet-sale";

describe("internet-sale data from a shop's words", () => {
  it("maps payment names, Turkish or English, to GİB's means", () => {
    const cases: Array<[string, string | undefined]> = [
      ["Kredi Kartı", "KREDIKARTI/BANKAKARTI"],
      ["KREDİ KARTI (3D)", "KREDIKARTI/BANKAKARTI"],
      ["Banka Kartı", "KREDIKARTI/BANKAKARTI"],
      ["Credit card", "KREDIKARTI/BANKAKARTI"],
      ["Havale/EFT", "EFT/HAVALE"],
      ["Bank Deposit", "EFT/HAVALE"],
      ["Money Order", "EFT/HAVALE"],
      ["KAPIDA ÖDEME", "KAPIDAODEME"],
      ["Kapıda Ödeme Kredi Kartı", "KAPIDAODEME"],
      ["Cash on Delivery (COD)", "KAPIDAODEME"],
      ["PayPal", "ODEMEARACISI"],
      ["Papara Cüzdan", "ODEMEARACISI"],
      ["Hediye çeki", "DIGER"],
      ["manual", "DIGER"],
      ["", undefined],
    ];
    for (const [text, means] of cases) expect([text, paymentMeansOfText(text)]).toEqual([text, means]);
    expect(paymentMeansOfText(null)).toBeUndefined();
  });

  it("gives the Turkish calendar day of an instant", () => {
    expect(saleDate("2026-11-20T22:30:00Z")).toBe("2026-11-21");
    expect(saleDate(Date.parse("2026-11-20T20:59:59Z"))).toBe("2026-11-20");
    expect(saleDate("not a date")).toBeUndefined();
    expect(saleDate(null)).toBeUndefined();
    expect(saleDate(0)).toBeUndefined();
  });

  it("drops empty members and an empty object", () => {
    expect(compact({ carrier: undefined, trackingNumber: "" })).toBeUndefined();
    expect(compact({ carrier: "Aras Kargo", trackingNumber: undefined })).toEqual({ carrier: "Aras Kargo" });
  });
});
