import { connect } from "node:net";
import { message } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

/**
 * Issue 11, defects 2, 5, 8 and 9, each reproduced as the report found it: inputs PostgreSQL
 * cannot store, transport-level refusals outside the envelope, missing security headers and
 * slow clients that were never cut off.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({
    CAPTCHA: "off",
    HTTP_HEADERS_TIMEOUT_SECONDS: "1",
    HTTP_REQUEST_TIMEOUT_SECONDS: "2",
  });
  ({ token } = await registerAndLogin(t.app));
});
afterAll(() => t.close());

const auth = () => ({ authorization: `Bearer ${token}` });
const TURKISH = /[çğıöşüÇĞİÖŞÜ]/;

/** The envelope of a refusal: Turkish text, no echo of what was sent. */
function expectRefusal(
  res: { statusCode: number; body: string },
  status: number,
  key?: Parameters<typeof message>[0],
) {
  expect(res.statusCode).toBe(status);
  const body = JSON.parse(res.body);
  expect(body.successful).toBe(false);
  expect(body.statusCode).toBe(status);
  expect(body.message).toMatch(TURKISH);
  if (key) expect(body.message).toBe(message(key));
  return body;
}

const fieldMessages = (body: { data: { errors?: Array<{ field: string; message: string }> } }) =>
  Object.fromEntries((body.data.errors ?? []).map((e) => [e.field, e.message]));

describe("defect 2: inputs the database cannot store are refused at validation", () => {
  it("refuses a NUL byte in a body text field with the field's message", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/activity",
      headers: auth(),
      payload: { activity_Description: "stok\u0000güncellendi" },
    });
    const body = expectRefusal(res, 400, "api.validationFailed");
    expect(fieldMessages(body).activity_Description).toBe(message("request.textControlCharacter"));
  });

  it("refuses a NUL byte in a search parameter", async () => {
    for (const url of [
      "/api/ErpMatching?search=%00",
      "/api/Ticket/my-company/1/10?searchKey=a%00b",
      "/api/JobErrorReport/1/10/StockIntegration?searchText=%00",
      "/api/settings/custom-data/a%00b",
    ]) {
      const body = expectRefusal(await t.app.inject({ method: "GET", url, headers: auth() }), 400);
      expect(JSON.stringify(body.data.errors)).toContain(message("request.textControlCharacter"));
    }
  });

  it("refuses ids beyond a PostgreSQL integer, and negative ids, in paths, queries and bodies", async () => {
    for (const id of ["2147483648", "9007199254740993", "1e300", "-1", "0"]) {
      for (const url of [`/api/ErpMatching/${id}`, `/api/Job/${id}`, `/api/Ticket/my-company/${id}`]) {
        const body = expectRefusal(await t.app.inject({ method: "GET", url, headers: auth() }), 400);
        expect(fieldMessages(body).id).toBe(message("request.idOutOfRange"));
      }
    }
    const huge = await t.app.inject({
      method: "POST",
      url: "/api/Notification/mark-as-read",
      headers: auth(),
      payload: [2147483648],
    });
    expect(fieldMessages(expectRefusal(huge, 400))["0"]).toBe(message("request.idOutOfRange"));
    const retry = await t.app.inject({
      method: "POST",
      url: "/api/JobErrorReport/retry",
      headers: auth(),
      payload: { jobErrorIdList: [-5] },
    });
    expect(fieldMessages(expectRefusal(retry, 400))["jobErrorIdList.0"]).toBe(
      message("request.idOutOfRange"),
    );
    const page = await t.app.inject({ method: "GET", url: "/api/Activity/1e300/10", headers: auth() });
    expect(fieldMessages(expectRefusal(page, 400)).pageNumber).toBe(message("request.numberOutOfRange"));
  });

  it("refuses extreme dates on Activity and SalesReport", async () => {
    for (const date of [
      "+275760-09-13",
      "-000001-01-01",
      "0001-01-01",
      "10000-01-01",
      "+020000-01-01T00:00:00Z",
    ]) {
      const q = `startDate=${encodeURIComponent(date)}`;
      for (const url of [`/api/Activity/1/10?${q}`, `/api/SalesReport?${q}`, `/api/JobHistory?${q}`]) {
        const body = expectRefusal(await t.app.inject({ method: "GET", url, headers: auth() }), 400);
        expect(fieldMessages(body).startDate).toMatch(TURKISH);
      }
    }
    const fine = await t.app.inject({
      method: "GET",
      url: "/api/SalesReport?startDate=2026-01-01&endDate=2026-12-31",
      headers: auth(),
    });
    expect(fine.statusCode).toBe(200);
  });

  it("refuses malformed multipart on ticket create and reply", async () => {
    const boundary = "----ep-fuzz";
    const bodies = [
      // A part that never ends.
      `--${boundary}\r\nContent-Disposition: form-data; name="subject"\r\n\r\nKargo sorunu`,
      // Garbage instead of parts.
      "this is not a multipart body at all",
      // A part without headers.
      `--${boundary}\r\n\r\n\r\n--${boundary}--`,
    ];
    for (const url of ["/api/Ticket/my-company", "/api/Ticket/my-company/ticket_reply"]) {
      for (const payload of bodies) {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { ...auth(), "content-type": `multipart/form-data; boundary=${boundary}` },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(TURKISH);
      }
      const noBoundary = await t.app.inject({
        method: "POST",
        url,
        headers: { ...auth(), "content-type": "multipart/form-data" },
        payload: "x",
      });
      expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
      expect(noBoundary.statusCode).toBeLessThan(500);
      expect(noBoundary.json().message).toMatch(TURKISH);
    }
  });

  it("logs a failed query by statement name and error class, never its parameters", async () => {
    const { sql } = await import("drizzle-orm");
    const secret = "Ayşe Yılmaz 05321234567";
    const error = await t.ctx.database.db
      .execute(sql`select ${`${secret}\u0000`}::text as x from "companies"`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeTruthy();
    t.ctx.logger.error({ err: error }, "query failed");
    const line = t.logs.find((l) => l.includes('"query failed"')) ?? "";
    expect(line).toContain('"statement":"select companies"');
    expect(line).not.toContain("Ayşe");
    expect(line).not.toContain("05321234567");
  });
});

describe("defect 8: every answer under /api is our envelope", () => {
  it("answers bad percent-encoding with 400 and does not echo the path", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/ErpMatching/%E0%A4%A" });
    expectRefusal(res, 400, "request.badUrl");
    expect(res.body).not.toContain("%E0");
  });

  it("answers an over-long path with 414", async () => {
    const longParam = await t.app.inject({
      method: "GET",
      url: `/api/Job/${"9".repeat(1500)}`,
      headers: auth(),
    });
    expectRefusal(longParam, 414, "request.uriTooLong");
    const longUrl = await t.app.inject({ method: "GET", url: `/api/no-such-thing/${"a".repeat(9000)}` });
    expectRefusal(longUrl, 414, "request.uriTooLong");
    expect(longUrl.body).not.toContain("aaaa");
  });

  it("answers unknown paths, wrong content types and malformed JSON in the envelope", async () => {
    expectRefusal(await t.app.inject({ method: "GET", url: "/api/yok/<script>" }), 404, "api.notFound");
    expectRefusal(await t.app.inject({ method: "PATCH", url: "/api/Account" }), 404, "api.notFound");
    expectRefusal(
      await t.app.inject({
        method: "POST",
        url: "/api/account/login",
        headers: { "content-type": "text/xml" },
        payload: "<login/>",
      }),
      415,
      "request.unsupportedMediaType",
    );
    expectRefusal(
      await t.app.inject({
        method: "POST",
        url: "/api/account/login",
        headers: { "content-type": "application/json" },
        payload: '{"email": "a@b.co",',
      }),
      400,
      "request.malformedJson",
    );
    expectRefusal(
      await t.app.inject({
        method: "POST",
        url: "/api/account/login",
        headers: { "content-type": "application/json" },
        payload: '{"__proto__": {"x": 1}}',
      }),
      400,
    );
  });
});

/** Sends raw bytes on a real socket and answers everything the server wrote until it closed. */
function rawExchange(port: number, send: (socket: ReturnType<typeof connect>) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (d) => {
      received += d.toString();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.on("connect", () => send(socket));
  });
}

describe("defects 8 and 9 on a real socket", () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  const envelopeOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));

  it("answers oversized headers with 431 in the envelope", async () => {
    const raw = await rawExchange(port, (s) =>
      s.write(`GET /api/config HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`),
    );
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(envelopeOf(raw).message).toBe(message("request.headersTooLarge"));
  });

  it("cuts off a client that never finishes its headers", async () => {
    const raw = await rawExchange(port, (s) => s.write("GET /api/config HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    expect(raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(envelopeOf(raw).message).toBe(message("request.timeout"));
  });

  it("cuts off a client that never finishes its body", async () => {
    const raw = await rawExchange(port, (s) => {
      s.write(
        "POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
      );
      // A byte now and then keeps the socket busy but never completes the request.
      const drip = setInterval(() => s.writable && s.write(" "), 300);
      s.on("close", () => clearInterval(drip));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(envelopeOf(raw).message).toBe(message("request.timeout"));
  });
});

describe("defect 5: security headers", () => {
  it("sends the CSP and the other headers on pages and API answers", async () => {
    for (const url of ["/api/config", "/api/no-such-thing", "/account/login"]) {
      const res = await t.app.inject({ method: "GET", url });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["permissions-policy"]).toContain("camera=()");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      // PUBLIC_URL is http:// here: HSTS would pin a browser to an https that does not exist.
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    }
  });

  it("adds HSTS when PUBLIC_URL is https", async () => {
    const https = await startTestApp({ PUBLIC_URL: "https://panel.example.com.tr" });
    try {
      const res = await https.app.inject({ method: "GET", url: "/api/config" });
      expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(String(res.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
    } finally {
      await https.close();
    }
  });

  it("keeps calls that answer 200 working under the new headers", async () => {
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(200);
  });
});
