import { describe, expect, it } from "vitest";
import { exportFileName, exportRange, INVOICE_STATES } from "./api";

describe("invoice export range (Faturalar › Excel / UBL)", () => {
  it("is today without dates, the chosen day, or the chosen range", () => {
    expect(exportRange({}, "2026-11-23")).toEqual({ from: "2026-11-23", to: "2026-11-23" });
    expect(exportRange({ from: "2026-11-20" }, "2026-11-23")).toEqual({
      from: "2026-11-20",
      to: "2026-11-20",
    });
    expect(exportRange({ to: "2026-11-21" }, "2026-11-23")).toEqual({ from: "2026-11-21", to: "2026-11-21" });
    expect(exportRange({ from: "2026-11-01", to: "2026-11-07" }, "2026-11-23")).toEqual({
      from: "2026-11-01",
      to: "2026-11-07",
    });
  });

  it("names the file after the day or the range, by format", () => {
    expect(exportFileName({ from: "2026-11-23", to: "2026-11-23" }, "xlsx")).toBe(
      "faturalar-2026-11-23.xlsx",
    );
    expect(exportFileName({ from: "2026-11-01", to: "2026-11-07" }, "ubl")).toBe(
      "faturalar-2026-11-01_2026-11-07.zip",
    );
  });

  it("knows the generated state of invoices kept for a portal upload", () => {
    expect(INVOICE_STATES).toContain("generated");
  });
});
