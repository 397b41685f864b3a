import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * `entegrasyon-agent service install|uninstall|status`: the program installs itself as the machine's
 * service. Windows: the Service Control Manager through `sc.exe` (start at boot, restart on failure),
 * with WinSW (from the npm package node-windows, carried inside the executable) as the service host,
 * since node.exe does not answer the SCM's control calls itself. Linux: a systemd unit.
 */

export const SERVICE_ID = "EntegrasyonAgent";
const SERVICE_NAME = "Entegrasyon Paneli Yerel Bağlantı Aracı";
const UNIT = "entegrasyon-agent";

/** Runs a system command; answers its output, throws with its output when it fails. */
export type Exec = (command: string, args: string[]) => string;

export const exec: Exec = (command, args) =>
  execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], windowsHide: true });

export type ServicePlatform = "windows" | "linux";

export type ServiceLayout = {
  platform: ServicePlatform;
  /** Where the executable is copied to (the service runs that copy, not the downloaded file). */
  program: string;
  /** The agent's home while it runs as the service (config, status, logs). */
  home: string;
  /** Linux: the unit file; Windows: WinSW's configuration beside its host executable. */
  definition: string;
};

/** Where things go on this machine; `root` prefixes every path (tests install into a temp folder). */
export function serviceLayout(platform: ServicePlatform, root = "", env = process.env): ServiceLayout {
  if (platform === "windows") {
    const programFiles = env.ProgramFiles ?? "C:\\Program Files";
    const programData = env.ProgramData ?? "C:\\ProgramData";
    const dir = `${root}${programFiles}\\EntegrasyonAgent`;
    return {
      platform,
      program: `${dir}\\entegrasyon-agent.exe`,
      home: `${root}${programData}\\EntegrasyonAgent`,
      definition: `${dir}\\entegrasyon-agent-service.xml`,
    };
  }
  return {
    platform,
    program: join(root || "/", "opt/entegrasyon-agent/entegrasyon-agent"),
    home: join(root || "/", "var/lib/entegrasyon-agent"),
    definition: join(root || "/", `etc/systemd/system/${UNIT}.service`),
  };
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** WinSW's configuration: runs `entegrasyon-agent.exe run`, its output in logs rolled at 5 MB (5 kept). */
export function winswXml(layout: ServiceLayout): string {
  return `<service>
  <id>${SERVICE_ID}</id>
  <name>${xmlEscape(SERVICE_NAME)}</name>
  <description>Entegrasyon Paneli ile ERP arasındaki bağlantıyı sağlar (dışarıya tek WebSocket bağlantısı).</description>
  <executable>${xmlEscape(layout.program)}</executable>
  <arguments>run --home "${xmlEscape(layout.home)}"</arguments>
  <workingdirectory>${xmlEscape(layout.home)}</workingdirectory>
  <logpath>${xmlEscape(layout.home)}\\logs</logpath>
  <log mode="roll-by-size"><sizeThreshold>5120</sizeThreshold><keepFiles>5</keepFiles></log>
  <env name="ENTEGRASYON_AGENT_SERVICE" value="1"/>
  <onfailure action="restart" delay="10 sec"/>
  <startmode>Automatic</startmode>
  <stoptimeout>15 sec</stoptimeout>
</service>
`;
}

/** The systemd unit: restarted unless the credential was refused (exit 2: pair again); sandboxed. */
export function systemdUnit(layout: ServiceLayout): string {
  return `[Unit]
Description=${SERVICE_NAME}
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=entegrasyon-agent
ExecStart="${layout.program}" run --home "${layout.home}"
Environment=ENTEGRASYON_AGENT_SERVICE=1
Restart=always
RestartSec=5
RestartPreventExitStatus=2
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
ReadWritePaths=${layout.home} ${dirname(layout.program)}

[Install]
WantedBy=multi-user.target
`;
}

/** WinSW host and its .NET runtime file, carried inside the single executable as SEA assets. */
export type WinswFiles = { exe: Buffer; config: Buffer };

export type InstallInput = {
  layout: ServiceLayout;
  /** The running executable, copied to `layout.program`. */
  self: string;
  exec: Exec;
  winsw?: WinswFiles;
};

/** Copies the program, writes the service definition and registers and starts the service. */
export function installService({ layout, self, exec, winsw }: InstallInput): void {
  mkdirSync(dirname(layout.program), { recursive: true });
  mkdirSync(layout.home, { recursive: true, mode: 0o700 });
  if (self !== layout.program) copyFileSync(self, layout.program);
  if (layout.platform === "windows") {
    if (!winsw) throw new Error("WinSW is not part of this build");
    const host = layout.definition.replace(/\.xml$/, ".exe");
    writeFileSync(host, winsw.exe);
    writeFileSync(`${host}.config`, winsw.config);
    writeFileSync(layout.definition, winswXml(layout));
    // The home holds the credential: SYSTEM and Administrators only (SIDs: names differ by language).
    exec("icacls", [
      layout.home,
      "/inheritance:r",
      "/grant:r",
      "*S-1-5-18:(OI)(CI)F",
      "*S-1-5-32-544:(OI)(CI)F",
    ]);
    exec("sc.exe", [
      "create",
      SERVICE_ID,
      "binPath=",
      `"${host}"`,
      "start=",
      "auto",
      "DisplayName=",
      SERVICE_NAME,
    ]);
    exec("sc.exe", ["description", SERVICE_ID, "Entegrasyon Paneli yerel bağlantı aracı"]);
    // Restart 10 s after a failure (twice), then after a minute; the count resets after a day.
    exec("sc.exe", [
      "failure",
      SERVICE_ID,
      "reset=",
      "86400",
      "actions=",
      "restart/10000/restart/10000/restart/60000",
    ]);
    exec("sc.exe", ["start", SERVICE_ID]);
    return;
  }
  try {
    exec("id", ["-u", "entegrasyon-agent"]);
  } catch {
    exec("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "entegrasyon-agent"]);
  }
  // The program's folder too: the agent replaces its own file when it updates itself.
  exec("chown", ["-R", "entegrasyon-agent:", layout.home, dirname(layout.program)]);
  mkdirSync(dirname(layout.definition), { recursive: true });
  writeFileSync(layout.definition, systemdUnit(layout));
  exec("systemctl", ["daemon-reload"]);
  exec("systemctl", ["enable", "--now", UNIT]);
}

/** Stops and removes the service and its program; the home (pairing, settings, logs) only when asked. */
export function uninstallService(layout: ServiceLayout, exec: Exec, deleteData: boolean): void {
  const quietly = (command: string, args: string[]) => {
    try {
      exec(command, args);
    } catch {
      // Already stopped, or not installed: removing goes on.
    }
  };
  if (layout.platform === "windows") {
    quietly("sc.exe", ["stop", SERVICE_ID]);
    quietly("sc.exe", ["delete", SERVICE_ID]);
    const host = layout.definition.replace(/\.xml$/, ".exe");
    for (const f of [host, `${host}.config`, layout.definition]) rmSync(f, { force: true });
  } else {
    quietly("systemctl", ["disable", "--now", UNIT]);
    rmSync(layout.definition, { force: true });
    quietly("systemctl", ["daemon-reload"]);
  }
  // The running program may be this very copy (Windows keeps a running file): left for the next reboot.
  try {
    rmSync(layout.program, { force: true });
  } catch {}
  if (deleteData && existsSync(layout.home)) rmSync(layout.home, { recursive: true, force: true });
}

export type ServiceState = "running" | "stopped" | "missing";

/** What the service manager says about the service. */
export function serviceState(layout: ServiceLayout, exec: Exec): ServiceState {
  if (layout.platform === "windows") {
    let out: string;
    try {
      out = exec("sc.exe", ["query", SERVICE_ID]);
    } catch {
      return "missing"; // 1060: the service does not exist
    }
    return /STATE\s*:\s*4\b/.test(out) ? "running" : "stopped";
  }
  if (!existsSync(layout.definition)) return "missing";
  try {
    return exec("systemctl", ["is-active", UNIT]).trim() === "active" ? "running" : "stopped";
  } catch {
    return "stopped";
  }
}

/** Whether this process may install a service (root; on Windows an elevated prompt, as `net session` tells). */
export function isAdmin(platform: ServicePlatform, exec: Exec): boolean {
  if (platform === "linux") return process.getuid?.() === 0;
  try {
    exec("net", ["session"]);
    return true;
  } catch {
    return false;
  }
}
