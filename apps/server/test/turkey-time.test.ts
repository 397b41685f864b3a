import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "../src/platform/time/turkey.ts";

const SRC = join(__dirname, "../src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

describe("the server's one date formatter", () => {
  it("writes DD-MM-YYYY HH:mm and DD-MM-YYYY in Turkish time (UTC+3), across midnight and the year", () => {
    expect(formatDateTime(new Date("2026-03-05T11:07:00Z"))).toBe("05-03-2026 14:07");
    expect(formatDateTime(new Date("2026-12-31T21:30:59Z"))).toBe("01-01-2027 00:30");
    expect(formatDate(new Date("2026-12-31T21:30:00Z"))).toBe("01-01-2027");
    expect(formatDate(new Date("2026-07-14T20:59:00Z"))).toBe("14-07-2026");
  });

  it("is the only one: no module formats dates with Intl or toLocale*String of its own", () => {
    const own = sources(SRC)
      .filter((f) => !f.endsWith(join("platform", "time", "turkey.ts")))
      .filter((f) => /Intl\.DateTimeFormat|toLocale(Date|Time)String\(/.test(readFileSync(f, "utf8")))
      .map((f) => relative(SRC, f));
    expect(own).toEqual([]);
  });
});
