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

/**
 * A scratch database on the local Firebird server for one suite (`/tmp/wt_<name>_<pid>.fdb`, SYSDBA), with
 * the password (undefined: no server, the suite is skipped).
 */
export function firebirdTestTarget(name: string) {
  const password = firebirdSysdbaPassword();
  const dbFile = `/tmp/wt_${name}_${process.pid}.fdb`;
  const target = {
    dialect: "firebird" as const,
    host: "127.0.0.1",
    port: 3050,
    database: dbFile,
    user: "SYSDBA",
    password: password ?? "",
  };
  return { password, dbFile, target };
}
