/**
 * What a browser downloads for the first view of the sign-in page and of the signed-in dashboard
 * (issue 13, item 5), measured in a real Chromium against the production server: every JS and CSS
 * response until the network has been idle, whatever loaded it (static imports, lazy routes, the
 * captcha widget, the sales chart). Each file's size is the precompressed twin the server sends
 * (gzip — the goal's measure — and brotli), and the bytes Chromium actually received are printed
 * beside them. `--strict` exits 1 on a FAIL. Needs `npm run build -w @ep/web` first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type BrowserContext, chromium, type Page } from "playwright-core";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const dist = join(root, "apps/web/dist");
const PORT = Number(process.env.BENCH_PORT ?? 41200);
const baseUrl = `http://127.0.0.1:${PORT}`;
const GOALS_KB = { signIn: 200, signedIn: 350 };
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

type Loaded = { path: string; received: number };
type Sized = Loaded & { gzip: number; br: number; raw: number };

/** The bytes the server sends for a file of the build: its precompressed twin, else the file. */
function sized({ path, received }: Loaded): Sized {
  const file = join(dist, decodeURIComponent(path));
  const raw = readFileSync(file);
  const twin = (ext: string) => (existsSync(file + ext) ? statSync(file + ext).size : raw.length);
  // No .gz twin means gzip saved nothing at build; count what gzip would give, never less than raw.
  const gzip = existsSync(`${file}.gz`)
    ? twin(".gz")
    : Math.min(raw.length, gzipSync(raw, { level: 9 }).length);
  return { path, received, raw: raw.length, gzip, br: twin(".br") };
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    // The production default: the sign-in page shows the captcha widget.
    CAPTCHA: "adaptive",
    // The demo company gives the dashboard a signed-in user with data behind its chart.
    DEMO: "1",
    LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    log += d.toString();
  });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    const ok = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, output: () => log };
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not answer /health:\n${log}`);
}

/** Every JS and CSS response a page receives from now on, with the bytes that crossed the wire. */
function recordAssets(page: Page): Loaded[] {
  const loaded: Loaded[] = [];
  page.on("requestfinished", (request) => {
    const url = new URL(request.url());
    if (url.origin !== baseUrl || !/\.(js|css)$/.test(url.pathname)) return;
    void request.sizes().then(
      (s) => loaded.push({ path: url.pathname, received: s.responseBodySize }),
      () => loaded.push({ path: url.pathname, received: 0 }),
    );
  });
  return loaded;
}

const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  // requestfinished's sizes() resolve a moment after the event.
  await new Promise((r) => setTimeout(r, 500));
};

/**
 * Opens a path in a context with an empty cache and waits until nothing more loads: the first
 * view. Then, when given, `interact` (what a visitor does next) and what that loads on top.
 */
async function firstView(
  context: BrowserContext,
  path: string,
  ready: (page: Page) => Promise<void>,
  interact?: (page: Page) => Promise<void>,
) {
  const page = await context.newPage();
  const loaded = recordAssets(page);
  await page.goto(baseUrl + path, { waitUntil: "networkidle" });
  await ready(page);
  await settle(page);
  const first = loaded.splice(0).map(sized);
  let after: Sized[] = [];
  if (interact) {
    await interact(page);
    await settle(page);
    after = loaded.splice(0).map(sized);
  }
  await page.close();
  return { first, after };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const sum = (files: Sized[], key: "gzip" | "br" | "raw" | "received") =>
  files.reduce((total, f) => total + f[key], 0);

function report(label: string, files: Sized[], goal: number): boolean {
  const js = files.filter((f) => f.path.endsWith(".js"));
  const css = files.filter((f) => f.path.endsWith(".css"));
  const gzip = sum(files, "gzip") / 1024;
  const pass = gzip <= goal;
  console.log(
    `${label}: ${files.length} files, ${kb(sum(files, "gzip"))} gzip (JS ${kb(sum(js, "gzip"))}, CSS ${kb(sum(css, "gzip"))}), ` +
      `${kb(sum(files, "br"))} brotli, ${kb(sum(files, "raw"))} raw; Chromium received ${kb(sum(files, "received"))}`,
  );
  if (process.argv.includes("--files"))
    for (const f of [...files].sort((a, b) => b.gzip - a.gzip))
      console.log(`    ${kb(f.gzip).padStart(9)} gzip  ${f.path}`);
  console.log(`${pass ? "PASS" : "FAIL"} ${label}: ${gzip.toFixed(1)} kB gzip (goal ≤ ${goal} kB)`);
  return pass;
}

async function main() {
  if (!existsSync(join(dist, ".vite/manifest.json")))
    throw new Error("apps/web/dist is missing: run `npm run build -w @ep/web` first");
  const work = mkdtempSync(join(tmpdir(), "ep-bench-bundle-"));
  const server = await startServer(join(work, "data"));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    // The server listens before the demo company is seeded, and offers its login only then.
    let demo: { email: string; password: string } | undefined;
    for (let tries = 0; !demo && tries < 240; tries++) {
      const config = (await (await fetch(`${baseUrl}/api/config`)).json()) as {
        data?: { demo?: { email: string; password: string } };
        demo?: { email: string; password: string };
      };
      demo = config.data?.demo ?? config.demo;
      if (!demo) await new Promise((r) => setTimeout(r, 500));
    }
    if (!demo) throw new Error("the server offers no demo account (DEMO=1)");

    // Sign-in: a visitor with an empty cache opens /account/login.
    const visitor = await browser.newContext();
    const signIn = await firstView(
      visitor,
      "/account/login",
      async (page) => {
        await page.getByRole("button", { name: "Giriş Yap" }).waitFor();
      },
      // The visitor starts on the form: the captcha widget and the form's validation load then.
      async (page) => {
        await page.getByRole("textbox", { name: "E-Posta", exact: true }).focus();
      },
    );

    // Sign in once (in that context), then open /dashboard in a new context that carries the
    // session but not the cache: the signed-in first load, sales chart included.
    const page = await visitor.newPage();
    await page.goto(`${baseUrl}/account/login`);
    await page.getByRole("textbox", { name: "E-Posta", exact: true }).fill(demo.email);
    await page.getByRole("textbox", { name: "Şifre", exact: true }).fill(demo.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await page.waitForURL("**/dashboard", { timeout: 60_000 });
    const state = await visitor.storageState();
    await visitor.close();
    const member = await browser.newContext({ storageState: state });
    const { first: signedIn } = await firstView(member, "/dashboard", async (p) => {
      await p.getByTestId("user-menu").waitFor({ timeout: 60_000 });
      await p.getByTestId("splash").waitFor({ state: "detached", timeout: 30_000 });
    });
    await member.close();

    const extra = signIn.after;
    console.log(
      `sign-in, loaded once the visitor starts on the form (captcha widget, validation; not part of the first view): ` +
        `${extra.length} files, ${kb(sum(extra, "gzip"))} gzip, ${kb(sum(extra, "br"))} brotli` +
        `; first view + that: ${kb(sum(signIn.first, "gzip") + sum(extra, "gzip"))} gzip`,
    );
    if (process.argv.includes("--files"))
      for (const f of [...extra].sort((a, b) => b.gzip - a.gzip))
        console.log(`    ${kb(f.gzip).padStart(9)} gzip  ${f.path}`);
    const passes = [
      report("sign-in first view (/account/login)", signIn.first, GOALS_KB.signIn),
      report("signed-in first view (/dashboard)", signedIn, GOALS_KB.signedIn),
    ];
    if (passes.includes(false) && process.argv.includes("--strict")) process.exitCode = 1;
  } finally {
    await browser.close();
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
