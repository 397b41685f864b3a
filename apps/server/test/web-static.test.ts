import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { startTestApp, type TestApp } from "./harness.ts";

// A built web app as Vite and its precompress step leave it: hashed assets with .br and .gz twins.
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `kelime-${i}`))};\n`;
const html = `<!doctype html><html lang="tr"><head><script type="module" src="/assets/index-Bx7f3k9Q.js"></script></head><body><div id="root"></div></body></html>`;

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), "ep-web-"));
  mkdirSync(join(dist, "assets"));
  const asset = join(dist, "assets/index-Bx7f3k9Q.js");
  writeFileSync(asset, script);
  writeFileSync(`${asset}.br`, brotliCompressSync(script));
  writeFileSync(`${asset}.gz`, gzipSync(script));
  writeFileSync(join(dist, "index.html"), html);
  writeFileSync(join(dist, "index.html.gz"), gzipSync(html));
  writeFileSync(join(dist, "robots.txt"), "User-agent: *\n");
  t = await startTestApp();
  app = await buildApp(t.ctx, { webDist: dist });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const fetchRaw = (url: string, acceptEncoding?: string) =>
  app.inject({
    method: "GET",
    url,
    headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
  });

describe("the web app's static files", () => {
  it("sends the brotli or gzip twin the browser accepts, and the plain file otherwise", async () => {
    const br = await fetchRaw("/assets/index-Bx7f3k9Q.js", "gzip, deflate, br");
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 2);

    const gz = await fetchRaw("/assets/index-Bx7f3k9Q.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await fetchRaw("/assets/index-Bx7f3k9Q.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);

    // A file without twins is sent as it is.
    const robots = await fetchRaw("/robots.txt", "br, gzip");
    expect(robots.headers["content-encoding"]).toBeUndefined();
    expect(robots.body).toContain("User-agent");
  });

  it("caches hashed assets for a year as immutable and revalidates index.html on every load", async () => {
    const asset = await fetchRaw("/assets/index-Bx7f3k9Q.js", "br");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    for (const url of ["/index.html", "/", "/dashboard", "/settings/api-keys"]) {
      const page = await fetchRaw(url, "gzip");
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["cache-control"], url).toBe("no-cache");
      expect(page.headers["content-type"], url).toMatch(/text\/html/);
      const body =
        page.headers["content-encoding"] === "gzip" ? gunzipSync(page.rawPayload).toString() : page.body;
      expect(body, url).toBe(html);
    }
    const robots = await fetchRaw("/robots.txt");
    expect(robots.headers["cache-control"]).toBe("no-cache");

    // API paths never fall back to the web app.
    const api = await fetchRaw("/api/nothing-here", "gzip");
    expect(api.statusCode).toBe(404);
    expect(api.headers["content-type"]).toMatch(/json/);
  });
});
