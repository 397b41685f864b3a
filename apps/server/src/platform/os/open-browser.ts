import { spawn } from "node:child_process";

/**
 * Opens the panel in the user's browser after `npm start` on a desktop: only in an interactive
 * terminal, never in CI, never on a server without a display, and never when BROWSER=none.
 * Failure is silent: the address is printed anyway.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!process.stdout.isTTY || env.CI || env.BROWSER === "none") return false;
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ["xdg-open", [url]]
          : [undefined, []];
  if (!command) return false;
  try {
    const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
