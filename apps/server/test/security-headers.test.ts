/**
 * The security headers on every answer, the framework's and Node's own refusals included (README
 * "Security headers and limits"): a refusal before routing skips the hooks that set them.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
}, 60_000);
afterAll(async () => t?.close());

const EXPECTED = [
  "content-security-policy",
  "x-content-type-options",
  "referrer-policy",
  "permissions-policy",
  "x-frame-options",
];

/** A request written on the socket as is: Node's parser refuses it before Fastify. */
function raw(text: string): Promise<string> {
  const port = Number(new URL(base).port);
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    socket.on("data", (d) => {
      answer += d;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", () => resolve(answer));
  });
}

function rawHeaders(answer: string): Record<string, string> {
  const head = answer.split("\r\n\r\n")[0] ?? "";
  return Object.fromEntries(
    head
      .split("\r\n")
      .slice(1)
      .map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
  );
}

describe("security headers on every answer", () => {
  it.each([
    ["an answer", "/health", 200],
    ["a 404", "/api/no-such-route", 404],
    ["a bad percent-encoding (Fastify's 400)", "/api/Job/%FF", 400],
    ["a too long request target (414)", `/api/Job?x=${"a".repeat(9000)}`, 414],
  ])("%s", async (_name, path, status) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(status);
    for (const name of EXPECTED) expect(res.headers.get(name), name).toBeTruthy();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    if (status !== 200) expect(((await res.json()) as { successful: boolean }).successful).toBe(false);
  });

  it("Node's 431 for an oversized header block carries them, in the envelope", async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const headers = rawHeaders(answer);
    for (const name of EXPECTED) expect(headers[name], name).toBeTruthy();
    expect(answer).toContain('"successful":false');
  });

  it("Node's 400 for an unparseable request carries them", async () => {
    const answer = await raw("GET /api/health HTTP/1.1\r\nHo st: x\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const headers = rawHeaders(answer);
    for (const name of EXPECTED) expect(headers[name], name).toBeTruthy();
  });
});
