import { spawn } from "node:child_process";
import { buildApp } from "./app.ts";
import { createContext, listenWhenWarm, StartupError, stopServer } from "./bootstrap.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { buildAgentBundle, type DemoAgent, startDemoAgent } from "./modules/demo/demo-agent.ts";
import { startDemoCompany } from "./modules/demo/demo-company.ts";
import { openBrowser } from "./platform/os/open-browser.ts";

/** `npm start`: API, web app, scheduler and workers in one process (ROLE=worker: workers only). */
async function main() {
  if (process.env.ROLE === "agent") {
    // `ROLE=agent npm start`: an on-site agent by hand (`entegrasyon-agent run`, paired beforehand).
    const agent = spawn(process.execPath, [await buildAgentBundle(), "run"], { stdio: "inherit" });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => agent.kill(signal));
    agent.on("exit", (code) => process.exit(code ?? 1));
    return;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const ctx = await createContext(config).catch((error: unknown) => {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    process.exit(1);
  });
  const app = config.role === "worker" ? undefined : await buildApp(ctx);
  if (app) await listenWhenWarm(app, config);
  // After listening: the demo's jobs call its sandboxes, which this server serves.
  const demo = config.demo && app ? await startDemoCompany(ctx, config.demo) : undefined;
  if (demo && config.demo) ctx.demoLogin = config.demo;
  // The demo's ERP is reached through a real agent process, as a customer's on-site ERP is.
  let demoAgent: DemoAgent | undefined;
  if (demo && config.demoAgent) {
    demoAgent = await startDemoAgent(ctx, demo.companyId).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, "demo agent not started; the demo ERP is reached directly");
      return undefined;
    });
  }
  if (app) {
    const where = config.databaseUrl ? "PostgreSQL" : `embedded database in ${config.dataDir}`;
    ctx.logger.info(`Entegrasyon Paneli is running at ${config.publicUrl} (${where})`);
    // Printed plainly too, so a person sees it whatever the log format and level.
    const lines = [`  Entegrasyon Paneli: ${config.publicUrl}`];
    if (demo && config.demo) {
      lines.push(
        `  Demo company sign-in: ${config.demo.email} / ${config.demo.password}`,
        `  (sandbox Mikro ERP${demoAgent ? ` reached through the on-site agent no ${demoAgent.agentId}` : ""}, sandbox IKAS shop)`,
      );
    }
    console.log(`\n${lines.join("\n")}\n  Ctrl+C stops it.\n`);
    openBrowser(config.publicUrl);
  } else {
    ctx.logger.info("worker started");
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, "shutting down");
    await stopServer(ctx, { app, demoAgent });
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
