/**
 * A canned TDS responder: enough of SQL Server's wire protocol ([MS-TDS]) for the real `mssql`/`tedious`
 * client to connect, log in, send statements and read rows, so the agent's SQL Server path is tested
 * without SQL Server (which cannot run here). Modelled on how tedious's own unit tests stand up a server
 * (tediousjs/tedious test/unit/connection-retry-test.ts @ f9683d56: PRELOGIN, LOGIN7 answered by
 * LOGINACK or ERROR); the token layouts follow [MS-TDS] 2.2.7 as tedious's parsers read them.
 *
 * It verifies the wire/driver path (connection, login, parameter encoding, row decoding, errors,
 * cancel), not SQL semantics: the answers come from the test's `answer` handler. Every statement is
 * read by the T-SQL judge (`sql-judge.ts`); a text the judge refuses is answered with an ERROR and kept
 * in `judgeFailures`. A connector's runtime rules (`rules`) are checked next, and a statement that breaks
 * one is answered with that rule's error number and kept in `ruleRefusals`.
 *
 * Interface (stable; other connectors' tests write `answer` handlers against it):
 *   startTdsServer({ user, password, database?, schema?, rules?, answer })
 *     -> { port, statements, judgeFailures, ruleRefusals, close }
 *   answer(text, params, info) -> { columns: [{ name, type }], rows, rowsAffected? } or throw { number, message }
 *   params: `@name` values without the `@`: number (int, decimal, float), bigint (bigint), string
 *   (nvarchar/varchar), Date (datetime, datetime2, date), boolean (bit), null.
 *
 * Parts: `types` (the interface above), `wire` (protocol numbers, byte reader/writer), `framing` (packets),
 * `login` (PRELOGIN, LOGIN7), `tokens` (reply tokens), `requests` (SQL batch and RPC reading),
 * `transactions` (Transaction Manager requests) and `server` (connections, queueing, cancel, judging).
 */

export { startTdsServer } from "./server";
export type * from "./types";
