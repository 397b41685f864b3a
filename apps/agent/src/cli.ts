import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { getAsset, isSea } from "node:sea";
import { parseArgs } from "node:util";
import { type MessageKey, message } from "@ep/contracts";
import { AGENT_VERSION, AgentClient, pair, proxyAgentFor } from "./client.ts";
import {
  exec,
  installService,
  isAdmin,
  type ServicePlatform,
  serviceLayout,
  serviceState,
  uninstallService,
} from "./service.ts";
import { type AgentState, AgentStore } from "./store.ts";
import { AgentUpdater, BUILT_UPDATE_KEY } from "./update/updater.ts";

const stateWord = (state: AgentState | undefined) =>
  state
    ? message(`agents.cli.state${state[0]!.toUpperCase()}${state.slice(1)}` as MessageKey)
    : message("agents.cli.stateOffline");

/** `entegrasyon-agent pair CODE --server URL | run | status`; exit code 2 = needs the user's action. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      server: { type: "string" },
      home: { type: "string" },
      dialect: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      database: { type: "string" },
      user: { type: "string" },
      password: { type: "string" },
      ntlm: { type: "boolean" },
      domain: { type: "string" },
      kind: { type: "string" },
      outbox: { type: "string" },
      version: { type: "boolean" },
      code: { type: "string" },
      proxy: { type: "string" },
      "delete-data": { type: "boolean" },
    },
  });
  if (values.version) {
    console.log(AGENT_VERSION);
    return 0;
  }
  if (values.proxy) {
    try {
      proxyAgentFor(values.proxy);
    } catch {
      console.error(message("agents.cli.proxyInvalid", { proxy: values.proxy }));
      return 2;
    }
  }
  const store = new AgentStore(values.home);
  const [command, code = values.code] = positionals;
  if (command === "service") return service(positionals[1], values);
  if (command === undefined) {
    // Started without arguments (a double-click): pair on first start, asking for what is missing.
    if (!store.loadConfig()) {
      const paired = await pairInto(store, values.server, values.code, values.proxy, true);
      if (paired !== 0) return paired;
    }
    return run(store, values.proxy);
  }
  if (command === "db") return databases(store, positionals.slice(1), values);
  if (command === "http-auth") return httpAuth(store, positionals.slice(1), values);
  if (command === "folder") return folders(store, positionals.slice(1), values);
  if (command === "pair" && code && values.server) {
    const paired = await pairInto(store, values.server, code, values.proxy, false);
    if (paired === 0) console.log(message("agents.cli.paired", { agentId: store.loadConfig()!.agentId }));
    return paired;
  }
  if (command === "run") return run(store, values.proxy);
  if (command === "status") {
    const status = store.loadStatus();
    if (!status) {
      console.log(message("agents.cli.noStatus"));
      return 0;
    }
    console.log(
      message("agents.cli.status", {
        state: stateWord(status.state),
        server: status.server,
        connectedAt: status.connectedAt ?? "-",
        lastError: status.lastError ?? "-",
      }),
    );
    return status.state === "online" ? 0 : 1;
  }
  console.log(message("agents.cli.usage"));
  return command ? 2 : 0;
}

/** Pairs with `code` (asked for on a terminal when missing) and saves the credential in `store`. */
async function pairInto(
  store: AgentStore,
  server: string | undefined,
  code: string | undefined,
  proxy: string | undefined,
  ask: boolean,
): Promise<number> {
  if ((!server || !code) && ask && process.stdin.isTTY) {
    // Lines read through the iterator are buffered: a pasted "address⏎code⏎" loses neither.
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const lines = rl[Symbol.asyncIterator]();
    const ask = async (key: "agents.cli.askServer" | "agents.cli.askCode") => {
      process.stdout.write(message(key));
      const next = await lines.next();
      return next.done ? "" : String(next.value).trim();
    };
    server ||= await ask("agents.cli.askServer");
    code ||= await ask("agents.cli.askCode");
    rl.close();
  }
  if (!server || !code) {
    console.error(message("agents.cli.notPaired"));
    return 2;
  }
  try {
    const config = await pair(server, code, undefined, proxy, store.loadHttpAuth());
    store.saveConfig(config);
    store.log(`paired as agent ${config.agentId} with ${config.server}`);
    return 0;
  } catch (e) {
    console.error(message("agents.cli.pairFailed", { reason: e instanceof Error ? e.message : String(e) }));
    return 2;
  }
}

/** `run`: stays connected until stopped; exit code 2 when the server refuses the credential. */
async function run(store: AgentStore, proxy: string | undefined): Promise<number> {
  const config = store.loadConfig();
  if (!config) {
    console.error(message("agents.cli.notPaired"));
    return 2;
  }
  // ENTEGRASYON_AGENT_PROTOCOL=1: JSON frames only, for a network device that mangles binary frames.
  const protocol = Number(process.env.ENTEGRASYON_AGENT_PROTOCOL) || undefined;
  const updater = updaterFor(store, config);
  const holdOffline = updater.recover();
  const client = new AgentClient(config, store, { protocol, proxy, onRelease: (f) => updater.onRelease(f) });
  updater.attach(client);
  // Tests only: a new version that never comes online (the deadline puts the old file back).
  if (holdOffline) return new Promise(() => undefined);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => client.stop());
  // Started by a supervisor (the demo server) with an IPC channel: stop when the supervisor is gone.
  if (process.channel) {
    process.channel.unref();
    process.once("disconnect", () => client.stop());
  }
  const final = await client.run();
  if (final === "refused") {
    console.error(message("agents.cli.refused"));
    return 2;
  }
  return 0;
}

/**
 * The self-update of the built executable (the sources do not replace themselves). Tests set
 * ENTEGRASYON_AGENT_UPDATE_DEADLINE_MS / _QUIET_MS (shorter waits) and ENTEGRASYON_AGENT_TEST_HOLD.
 */
function updaterFor(store: AgentStore, config: NonNullable<ReturnType<AgentStore["loadConfig"]>>) {
  const env = process.env;
  return new AgentUpdater({
    store,
    config,
    version: AGENT_VERSION,
    exe: isSea() ? process.execPath : undefined,
    args: process.argv.slice(2),
    // Set by the service definitions (service.ts); systemd also sets INVOCATION_ID for its services.
    service: env.ENTEGRASYON_AGENT_SERVICE === "1" || !!env.INVOCATION_ID,
    publicKey: BUILT_UPDATE_KEY,
    deadlineMs: Number(env.ENTEGRASYON_AGENT_UPDATE_DEADLINE_MS) || undefined,
    quietMs: env.ENTEGRASYON_AGENT_UPDATE_QUIET_MS
      ? Number(env.ENTEGRASYON_AGENT_UPDATE_QUIET_MS)
      : undefined,
    hold: env.ENTEGRASYON_AGENT_TEST_HOLD,
  });
}

/** `service install|uninstall|status` on this machine (Windows service or systemd unit). */
async function service(
  action: string | undefined,
  v: Record<string, string | boolean | undefined>,
): Promise<number> {
  const platform: ServicePlatform = process.platform === "win32" ? "windows" : "linux";
  const layout = serviceLayout(platform);
  const store = new AgentStore(layout.home);
  if (action === "status") {
    const state = serviceState(layout, exec);
    const status = store.loadStatus();
    const word = { running: "serviceRunning", stopped: "serviceStopped", missing: "serviceMissing" } as const;
    console.log(
      message("agents.cli.serviceStatus", {
        service: message(`agents.cli.${word[state]}`),
        state: stateWord(state === "running" ? status?.state : "offline"),
        server: status?.server ?? "-",
        connectedAt: status?.connectedAt ?? "-",
        lastError: status?.lastError ?? "-",
      }),
    );
    return state === "running" && status?.state === "online" ? 0 : 1;
  }
  if (action !== "install" && action !== "uninstall") {
    console.log(message("agents.cli.serviceUsage"));
    return 2;
  }
  if (!isAdmin(platform, exec)) {
    console.error(message("agents.cli.serviceNeedsAdmin"));
    return 2;
  }
  const text = (name: string) => (typeof v[name] === "string" ? (v[name] as string) : undefined);
  try {
    if (action === "uninstall") {
      uninstallService(layout, exec, v["delete-data"] === true);
      console.log(message("agents.cli.serviceUninstalled", { name: "entegrasyon-agent" }));
      console.log(
        message(v["delete-data"] === true ? "agents.cli.dataDeleted" : "agents.cli.dataKept", {
          home: layout.home,
        }),
      );
      return 0;
    }
    if (text("code") || !store.loadConfig()) {
      const paired = await pairInto(store, text("server"), text("code"), text("proxy"), true);
      if (paired !== 0) return paired;
    }
    // Only the built executable can become the service (the sources need Node and this repository).
    if (!isSea()) throw new Error("entegrasyon-agent service install: use the downloaded executable");
    // Again over an installed service (an update by hand): the old registration and program go first.
    if (serviceState(layout, exec) !== "missing") uninstallService(layout, exec, false);
    installService({
      layout,
      self: process.execPath,
      exec,
      winsw:
        platform === "windows"
          ? { exe: Buffer.from(getAsset("winsw.exe")), config: Buffer.from(getAsset("winsw.exe.config")) }
          : undefined,
    });
    console.log(
      message("agents.cli.serviceInstalled", {
        name: platform === "windows" ? "EntegrasyonAgent" : "entegrasyon-agent",
      }),
    );
    return 0;
  } catch (e) {
    console.error(
      message("agents.cli.serviceFailed", { reason: e instanceof Error ? e.message : String(e) }),
    );
    return 1;
  }
}

/** `http-auth add|list|remove`: the Windows (NTLM) account used when relaying HTTP to a host of this network. */
function httpAuth(
  store: AgentStore,
  args: string[],
  v: Record<string, string | boolean | undefined>,
): number {
  const [action, host] = args;
  const all = store.loadHttpAuth();
  const text = (name: string) => (typeof v[name] === "string" ? (v[name] as string) : undefined);
  if (action === "list") {
    const hosts = Object.keys(all);
    if (hosts.length === 0) console.log(message("agents.cli.httpAuthNone"));
    for (const h of hosts) {
      const a = all[h]!;
      console.log(
        message("agents.cli.httpAuthLine", { host: h, scheme: a.scheme, domain: a.domain, user: a.user }),
      );
    }
    return 0;
  }
  if (action === "remove" && host) {
    delete all[host.toLowerCase()];
    store.saveHttpAuth(all);
    console.log(message("agents.cli.httpAuthRemoved", { host }));
    return 0;
  }
  const [domain, user, password] = [text("domain") ?? "", text("user"), text("password")];
  if (action === "add" && host && v.ntlm === true && user && password) {
    all[host.toLowerCase()] = { scheme: "ntlm", domain, user, password };
    store.saveHttpAuth(all);
    store.log(`http auth saved for ${host} (ntlm ${domain}\\${user})`);
    console.log(message("agents.cli.httpAuthSaved", { host, scheme: "NTLM", domain, user }));
    return 0;
  }
  console.log(message("agents.cli.httpAuthUsage"));
  return 2;
}

/** `db add|list|remove`: the databases the server may query by alias; their passwords stay here. */
function databases(
  store: AgentStore,
  args: string[],
  v: Record<string, string | boolean | undefined>,
): number {
  const [action, alias] = args;
  const all = store.loadDatabases();
  const text = (name: string) => (typeof v[name] === "string" ? (v[name] as string) : undefined);
  if (action === "list") {
    const names = Object.keys(all);
    if (names.length === 0) console.log(message("agents.cli.dbNone"));
    for (const name of names) {
      const d = all[name]!;
      console.log(message("agents.cli.dbLine", { alias: name, ...d, user: d.user }));
    }
    return 0;
  }
  if (action === "remove" && alias) {
    delete all[alias];
    store.saveDatabases(all);
    console.log(message("agents.cli.dbRemoved", { alias }));
    return 0;
  }
  const dialect = text("dialect");
  const [host, database, user, password] = [text("host"), text("database"), text("user"), text("password")];
  if (
    action === "add" &&
    alias &&
    (dialect === "firebird" || dialect === "mssql") &&
    host &&
    database &&
    user &&
    password
  ) {
    const port = text("port") ? Number(text("port")) : undefined;
    all[alias] = { dialect, host, port, database, user, password };
    store.saveDatabases(all);
    store.log(`database ${alias} saved (${dialect} ${host}:${database})`);
    console.log(message("agents.cli.dbSaved", { alias, dialect, host, database }));
    return 0;
  }
  console.log(message("agents.cli.dbUsage"));
  return 2;
}

/** `folder add|list|remove`: folders whose Excel / CSV / XML files go to the server (products, stock, prices). */
function folders(store: AgentStore, args: string[], v: Record<string, string | boolean | undefined>): number {
  const [action, path] = args;
  const all = store.loadFolders();
  if (action === "list") {
    if (all.length === 0) console.log(message("agents.cli.folderNone"));
    for (const f of all) console.log(message("agents.cli.folderLine", { ...f, outbox: f.outbox ?? "-" }));
    return 0;
  }
  if (action === "remove" && path) {
    const full = resolve(path);
    store.saveFolders(all.filter((f) => f.path !== full));
    console.log(message("agents.cli.folderRemoved", { path: full }));
    return 0;
  }
  const kind = v.kind;
  if (action === "add" && path && (kind === "products" || kind === "stock" || kind === "prices")) {
    const full = resolve(path);
    const outbox = typeof v.outbox === "string" ? resolve(v.outbox) : null;
    mkdirSync(full, { recursive: true });
    store.saveFolders([...all.filter((f) => f.path !== full), { path: full, kind, outbox }]);
    store.log(`folder ${full} watched (${kind}${outbox ? `, outbox ${outbox}` : ""})`);
    console.log(message("agents.cli.folderSaved", { path: full, kind }));
    return 0;
  }
  console.log(message("agents.cli.folderUsage"));
  return 2;
}

// No top-level await: the single executable runs this file bundled as CommonJS.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  },
);
