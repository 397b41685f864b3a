import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Exec,
  installService,
  SERVICE_ID,
  serviceLayout,
  serviceState,
  uninstallService,
  winswXml,
} from "./service.ts";

/** Records the system commands instead of running them; `fail` names commands that fail. */
function recorder(fail: (command: string, args: string[]) => boolean = () => false) {
  const calls: string[] = [];
  const exec: Exec = (command, args) => {
    calls.push([command, ...args].join(" "));
    if (fail(command, args)) throw new Error(`${command} failed`);
    return command === "sc.exe" && args[0] === "query" ? "STATE              : 4  RUNNING" : "active\n";
  };
  return { calls, exec };
}

describe("service install / uninstall", () => {
  it("Linux: copies the program, writes a restarting sandboxed unit, enables it; uninstall keeps data unless asked", () => {
    const root = mkdtempSync(join(tmpdir(), "ep-svc-"));
    const self = join(root, "downloaded-agent");
    writeFileSync(self, "ELF");
    const layout = serviceLayout("linux", root);
    const { calls, exec } = recorder((command) => command === "id");
    installService({ layout, self, exec });
    expect(readFileSync(layout.program, "utf8")).toBe("ELF");
    const unit = readFileSync(layout.definition, "utf8");
    expect(unit).toContain(`ExecStart="${layout.program}" run --home "${layout.home}"`);
    expect(unit).toContain("Restart=always");
    expect(unit).toContain("RestartPreventExitStatus=2");
    // The program's folder is writable by the service: the agent swaps its own file when it updates.
    expect(unit).toContain(`ReadWritePaths=${layout.home} ${dirname(layout.program)}`);
    expect(unit).toContain("Environment=ENTEGRASYON_AGENT_SERVICE=1");
    expect(statSync(layout.home).mode & 0o777).toBe(0o700);
    expect(calls).toEqual([
      "id -u entegrasyon-agent",
      "useradd --system --no-create-home --shell /usr/sbin/nologin entegrasyon-agent",
      `chown -R entegrasyon-agent: ${layout.home} ${dirname(layout.program)}`,
      "systemctl daemon-reload",
      "systemctl enable --now entegrasyon-agent",
    ]);
    expect(serviceState(layout, exec)).toBe("running");

    writeFileSync(join(layout.home, "config.json"), "{}");
    uninstallService(layout, exec, false);
    expect(existsSync(layout.definition)).toBe(false);
    expect(existsSync(layout.program)).toBe(false);
    expect(existsSync(join(layout.home, "config.json"))).toBe(true);
    expect(serviceState(layout, exec)).toBe("missing");
    uninstallService(layout, exec, true);
    expect(existsSync(layout.home)).toBe(false);
  });

  it("Windows: WinSW host beside its XML, registered with sc.exe to start at boot and restart on failure", () => {
    const root = mkdtempSync(join(tmpdir(), "ep-svc-win-"));
    // Windows paths are built with backslashes; here each is a plain file name inside the temp folder.
    const layout = {
      platform: "windows" as const,
      program: join(root, "entegrasyon-agent.exe"),
      home: join(root, "data"),
      definition: join(root, "entegrasyon-agent-service.xml"),
    };
    const self = join(root, "indirilen.exe");
    writeFileSync(self, "MZ");
    const { calls, exec } = recorder();
    installService({ layout, self, exec, winsw: { exe: Buffer.from("WINSW"), config: Buffer.from("<c/>") } });
    expect(readFileSync(join(root, "entegrasyon-agent-service.exe"), "utf8")).toBe("WINSW");
    expect(readFileSync(join(root, "entegrasyon-agent-service.exe.config"), "utf8")).toBe("<c/>");
    const xml = readFileSync(layout.definition, "utf8");
    expect(xml).toBe(winswXml(layout));
    expect(xml).toContain(`<executable>${layout.program}</executable>`);
    expect(xml).toContain(
      '<log mode="roll-by-size"><sizeThreshold>5120</sizeThreshold><keepFiles>5</keepFiles></log>',
    );
    expect(xml).toContain('<onfailure action="restart" delay="10 sec"/>');
    expect(calls[0]).toContain("icacls");
    expect(calls[0]).toContain("*S-1-5-18:(OI)(CI)F");
    expect(calls.slice(1)).toEqual([
      `sc.exe create ${SERVICE_ID} binPath= "${join(root, "entegrasyon-agent-service.exe")}" start= auto DisplayName= Entegrasyon Paneli Yerel Bağlantı Aracı`,
      `sc.exe description ${SERVICE_ID} Entegrasyon Paneli yerel bağlantı aracı`,
      `sc.exe failure ${SERVICE_ID} reset= 86400 actions= restart/10000/restart/10000/restart/60000`,
      `sc.exe start ${SERVICE_ID}`,
    ]);
    expect(serviceState(layout, exec)).toBe("running");
    const missing = recorder(() => true);
    expect(serviceState(layout, missing.exec)).toBe("missing");
    uninstallService(layout, exec, false);
    expect(calls.slice(-3)).toEqual([
      `sc.exe query ${SERVICE_ID}`,
      `sc.exe stop ${SERVICE_ID}`,
      `sc.exe delete ${SERVICE_ID}`,
    ]);
    expect(existsSync(join(root, "entegrasyon-agent-service.exe"))).toBe(false);
    expect(existsSync(layout.home)).toBe(true);
  });
});
