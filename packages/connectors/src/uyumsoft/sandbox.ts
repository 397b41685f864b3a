import { existsSync } from "node:fs";
import { type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { createUyumsoftEmulator, UYUMSOFT_PATH } from "./emulator/server";
import { UYUMSOFT_TEST_ACCOUNT } from "./emulator/state";
import { WSDL_PATH } from "./judge/artifact";

export const uyumsoftSandbox: SandboxEntry = {
  system: "uyumsoft",
  // The emulator reads the vendor WSDL/XSDs from ../shared (present in a clone with the shared docs: CI and
  // development); without them the system is simply not offered as a sandbox.
  available: () => existsSync(WSDL_PATH),
  credentials: (baseUrl, secret) => ({
    endpoint: `${baseUrl}${UYUMSOFT_PATH}`,
    username: "Uyumsoft",
    password: secret("password"),
  }),
  async start({ seed, credentials: c }) {
    const emu = await createUyumsoftEmulator({
      seed,
      account: { ...UYUMSOFT_TEST_ACCOUNT, username: c.username ?? "Uyumsoft", password: c.password ?? "" },
    });
    return sandboxInstance(emu.server);
  },
};
