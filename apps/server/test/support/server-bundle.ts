import { serverNodeArgs } from "../../src/server-process.ts";

/**
 * Global setup: the server's bundle as `npm start` builds it (only when stale), once per run, so suites
 * that start the server as a process start what production runs, without tsx's cold compile of every
 * connector on each start.
 */
export default function setup() {
  serverNodeArgs("start");
}
