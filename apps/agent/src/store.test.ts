import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentStore, LOG_ROTATE_BYTES } from "./store.ts";

describe("agent.log", () => {
  it("rotates past its bound and keeps five old files", () => {
    const home = mkdtempSync(join(tmpdir(), "ep-agent-log-"));
    const store = new AgentStore(home);
    const log = join(home, "agent.log");
    for (let round = 1; round <= 7; round++) {
      writeFileSync(log, Buffer.alloc(LOG_ROTATE_BYTES, 0x61));
      store.log(`satır ${round}`);
      expect(readFileSync(log, "utf8")).toMatch(new RegExp(`satır ${round}\\n$`));
    }
    for (let i = 1; i <= 5; i++) expect(existsSync(`${log}.${i}`)).toBe(true);
    expect(existsSync(`${log}.6`)).toBe(false);
  });
});
