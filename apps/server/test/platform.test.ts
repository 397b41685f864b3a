import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseStartError } from "../src/bootstrap.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { CredentialCipher } from "../src/platform/security/credentials.ts";
import { loadSecrets } from "../src/platform/security/secrets.ts";
import { serverDir, serverNodeArgs } from "../src/server-process.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";
import { signal } from "./support/signal.ts";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off", METRICS_TOKEN: METRICS_TOKEN });
  t.app.get("/api/test/boom", async () => {
    throw new Error("secret internal detail");
  });
  await t.app.ready();
});
afterAll(() => t.close());

describe("the HTTP platform", () => {
  it("answers /health with database and queue reachable", async () => {
    const res = await t.app.inject({ method: "GET", url: "/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: "ok", queue: "ok" });
  });

  it("serves Prometheus metrics counted by route pattern", async () => {
    await call(t.app, "GET", "/api/config");
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.headers["content-type"]).toContain("text/plain");
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/config",status="200"\} \d+/);
  });

  it("refuses /metrics without its token (issue 11, defect 10)", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${METRICS_TOKEN}`]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain("http_requests_total");
      expect(res.json().successful).toBe(false);
    }
  });

  it("never hands out the demo sign-in unless started with DEMO=1", async () => {
    const res = await call(t.app, "GET", "/api/config");
    expect(res.body.data.demo).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain("Demo.Panel2026");
  });

  it("serves the OpenAPI document generated from the schemas", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/account/register", "/api/account/login", "/api/Account"]),
    );
    expect(
      doc.paths["/api/account/register"].post.requestBody.content["application/json"].schema.properties,
    ).toHaveProperty("company_Name");
  });

  it("matches API paths without regard to case", async () => {
    const { token } = await registerAndLogin(t.app);
    for (const path of ["/api/Account", "/api/account", "/API/ACCOUNT", "/api/customerlicense"]) {
      expect((await call(t.app, "GET", path, { token })).status).toBe(200);
    }
  });

  it("answers unknown API paths with the 404 envelope", async () => {
    const res = await call(t.app, "GET", "/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      successful: false,
      statusCode: 404,
      message: "Aradığınız kayıt bulunamadı.",
      data: null,
    });
  });

  it("turns an unexpected error into 500 with a request id and no internals", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/test/boom" });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.successful).toBe(false);
    expect(body.data.requestId).toBe(res.headers["x-request-id"]);
    expect(res.body).not.toContain("secret internal detail");
    expect(res.body).not.toContain("at ");
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/account/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().successful).toBe(false);
  });

  it("never writes passwords, tokens or reset codes to the log", async () => {
    const { registration, token } = await registerAndLogin(t.app);
    await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    await call(t.app, "POST", "/api/account/check-row-id?rowid=abcdefsecretcode");
    await call(
      t.app,
      "POST",
      "/api/Account/update-password?oldPassword=Eski.Gizli1&password=Yeni.Gizli1&confirmPassword=Yeni.Gizli1",
      { token },
    );
    const text = t.logs.join("");
    expect(text).not.toContain(registration.password);
    expect(text).not.toContain(token);
    expect(text).not.toContain("abcdefsecretcode");
    expect(text).not.toContain("Yeni.Gizli1");
    expect(text).not.toContain("Eski.Gizli1");
    expect(text).toContain('"reqId"');
  });
});

describe("configuration", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({ INIT_CWD: "/srv/app", LOG_FORMAT: "json" });
    expect(c).toMatchObject({
      port: 3000,
      dataDir: "/srv/app/data",
      captcha: "adaptive",
      logLevel: "info",
      databaseUrl: undefined,
    });
    // A person at a terminal sees problems only; LOG_LEVEL still decides when set.
    expect(loadConfig({ LOG_FORMAT: "pretty" }).logLevel).toBe("warn");
    expect(loadConfig({ LOG_FORMAT: "pretty", LOG_LEVEL: "debug" }).logLevel).toBe("debug");
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
    expect(c.publicUrl).toBe("http://localhost:3000");
    expect(c.trustProxy).toBe(false);
    const oneHop = loadConfig({ TRUST_PROXY: "1" }).trustProxy;
    expect(typeof oneHop === "function" && [oneHop("10.0.0.1", 0), oneHop("10.0.0.2", 1)]).toEqual([
      true,
      false,
    ]);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.1,10.0.0.0/8" }).trustProxy).toEqual(["10.0.0.1", "10.0.0.0/8"]);
  });

  it("keeps the demo and /metrics closed unless asked (issue 11, defect 10)", () => {
    // The embedded default is a try-out on one machine: the demo is on; a server install (PostgreSQL) is not.
    expect(loadConfig({}).demo).not.toBeNull();
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).demo).toBeNull();
    expect(loadConfig({ DEMO: "0" }).demo).toBeNull();
    expect(loadConfig({ DEMO: "1" }).demo).toEqual({
      email: "demo@entegrasyonpaneli.com",
      password: "Demo.Panel2026",
    });
    // Embedded default: a single-machine install reads its metrics without a token.
    expect(loadConfig({}).metrics).toBe("open");
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).metrics).toBe("off");
    expect(
      loadConfig({ DATABASE_URL: "postgres://db/x", METRICS_TOKEN: "0123456789abcdef" }).metrics,
    ).toEqual({
      token: "0123456789abcdef",
    });
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("says in one Turkish and English line why DATABASE_URL cannot be opened", () => {
    const refused = databaseStartError(
      Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" }),
      "postgres://app:Gizli.Parola@10.0.0.5/entegrasyon",
    ).message;
    expect(refused).toBe(
      "DATABASE_URL: Veritabanına bağlanılamadı (10.0.0.5:5432/entegrasyon): sunucu bağlantıyı reddetti. / Cannot open the database (10.0.0.5:5432/entegrasyon): the server refused the connection.",
    );
    const password = databaseStartError(
      Object.assign(new Error('password authentication failed for user "app"'), { code: "28P01" }),
      "postgres://app:Gizli.Parola@db:6432/x",
    ).message;
    expect(password).toContain("kullanıcı adı veya parola kabul edilmedi");
    expect(password).not.toContain("Gizli.Parola");
    expect(password).not.toContain("\n");
  });

  it("stops with that one line, and no stack, when the database does not answer", async () => {
    const { spawnSync } = await import("node:child_process");
    // The server as `npm start` runs it (the suite's bundle), not tsx compiling every module cold first.
    const result = spawnSync(process.execPath, serverNodeArgs("start"), {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: mkdtempSync(join(tmpdir(), "ep-baddb-")),
        DATABASE_URL: "postgres://nobody:secret@127.0.0.1:1/nothing",
        PORT: "0",
        BROWSER: "none",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toEqual([
      "DATABASE_URL: Veritabanına bağlanılamadı (127.0.0.1:1/nothing): sunucu bağlantıyı reddetti. / Cannot open the database (127.0.0.1:1/nothing): the server refused the connection.",
    ]);
  }, 70_000);

  it("names every bad value in one clear message", () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: "abc",
        CAPTCHA: "sometimes",
        DATABASE_URL: "mysql://x",
        SMTP_URL: "http://x",
        LOG_LEVEL: "loud",
        TRUST_PROXY: "everyone",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "CAPTCHA", "DATABASE_URL", "SMTP_URL", "LOG_LEVEL", "TRUST_PROXY"])
      expect(problems).toContain(name);
  });

  it("generates secrets once into DATA_DIR with mode 0600 and reuses them", () => {
    const dir = mkdtempSync(join(tmpdir(), "ep-secrets-"));
    const config = loadConfig({ DATA_DIR: dir });
    const first = loadSecrets(config);
    const second = loadSecrets(config);
    expect(second.tokenSecret).toBe(first.tokenSecret);
    expect(statSync(join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "secrets.json"), "utf8")).toContain(first.tokenSecret);
  });

  it("prefers secrets from the environment", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const config = loadConfig({
      DATA_DIR: "/nonexistent-never-created",
      TOKEN_SECRET: "x".repeat(40),
      CREDENTIAL_KEY: `k9:${key}`,
    });
    const secrets = loadSecrets(config);
    expect(secrets.tokenSecret).toBe("x".repeat(40));
    expect(secrets.credentialKey.id).toBe("k9");
  });
});

describe("credential encryption", () => {
  it("round-trips with AES-256-GCM, carries the key id, and refuses tampering or an unknown key", () => {
    const k1 = Buffer.alloc(32, 1);
    const k2 = Buffer.alloc(32, 2);
    const old = new CredentialCipher(new Map([["k1", k1]]), "k1");
    const sealed = old.encrypt("client-secret-123");
    expect(sealed.startsWith("k1.")).toBe(true);
    expect(sealed).not.toContain("client-secret-123");
    const rotated = new CredentialCipher(
      new Map([
        ["k1", k1],
        ["k2", k2],
      ]),
      "k2",
    );
    expect(rotated.decrypt(sealed)).toBe("client-secret-123");
    expect(rotated.encrypt("x").startsWith("k2.")).toBe(true);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => rotated.decrypt(parts.join("."))).toThrow();
    expect(() => new CredentialCipher(new Map([["k2", k2]]), "k2").decrypt(sealed)).toThrow(/key k1/);
  });
});

describe("request bodies", () => {
  it("accepts a JSON content type with an empty body on calls that take none", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/account/logout",
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("job queue", () => {
  it("a job still running when the server stops is failed back to the queue, and its late end is no crash", async () => {
    const own = await startTestApp({ CAPTCHA: "off" });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      const running = signal();
      const held = signal();
      await own.ctx.queue.boss.createQueue("test-slow");
      await own.ctx.queue.boss.work("test-slow", { pollingIntervalSeconds: 0.5 }, async () => {
        running.fire();
        await held.wait;
      });
      await own.ctx.queue.send("test-slow", {});
      await running.wait;
      // The stop waits its bound (at least 1 s), fails the job back, and the database closes under it.
      await own.close();
      held.fire();
      await new Promise((r) => setTimeout(r, 200));
      expect(rejections).toEqual([]);
      expect(own.logs.some((l) => l.includes("queue call after stop dropped"))).toBe(true);
    } finally {
      process.off("unhandledRejection", onRejection);
    }
    // A whole app of its own starts and stops here: 25 s at load 12 with the channel modules.
  }, 90_000);
});
