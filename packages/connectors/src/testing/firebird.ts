import { existsSync, readFileSync } from "node:fs";

/**
 * The SYSDBA password of the local Firebird 3 server that the SQL suites run on: `FIREBIRD_PASSWORD`, or
 * the file Debian's firebird3.0-server writes at install. Undefined when there is no such server.
 */
export function firebirdSysdbaPassword(): string | undefined {
  if (process.env.FIREBIRD_PASSWORD) return process.env.FIREBIRD_PASSWORD;
  const file = "/etc/firebird/3.0/SYSDBA.password";
  if (!existsSync(file)) return undefined;
  return /ISC_PASSWORD="?([^"\n]+)"?/.exec(readFileSync(file, "utf8"))?.[1];
}
