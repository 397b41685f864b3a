import { createReadStream, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `npm run build:agent` leaves the executables and their manifest (AGENT_DOWNLOADS_DIR overrides). */
const DEFAULT_DIR = resolve(fileURLToPath(import.meta.url), "../../../../../agent/dist-exe");

export const AGENT_PLATFORMS = ["windows", "linux"] as const;
export type AgentPlatform = (typeof AGENT_PLATFORMS)[number];

export type AgentDownload = {
  platform: AgentPlatform;
  fileName: string;
  size: number;
  sha256: string;
  /** The build's Ed25519 signature (base64) the agents check before they update to this file. */
  signature?: string;
};
export type AgentRelease = { version: string; builtAt: string; files: AgentDownload[] };

type Manifest = {
  version: string;
  builtAt: string;
  files: { platform: string; file: string; size: number; sha256: string; signature?: string }[];
};

export const agentDownloadsDir = () => process.env.AGENT_DOWNLOADS_DIR || DEFAULT_DIR;

/**
 * The built release as its manifest describes it, keeping only files that are there with the size the
 * manifest names (a half-copied file is not offered). Undefined when the agent was not built here.
 */
export function readAgentRelease(dir = agentDownloadsDir()): AgentRelease | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
  const files: AgentDownload[] = [];
  for (const f of manifest.files ?? []) {
    if (!(AGENT_PLATFORMS as readonly string[]).includes(f.platform)) continue;
    // Only a bare file name from the manifest: never a path out of the folder.
    if (f.file !== f.file.replace(/[\\/]/g, "")) continue;
    try {
      if (statSync(join(dir, f.file)).size !== f.size) continue;
    } catch {
      continue;
    }
    files.push({
      platform: f.platform as AgentPlatform,
      fileName: f.file,
      size: f.size,
      sha256: f.sha256,
      signature: f.signature,
    });
  }
  return files.length ? { version: manifest.version, builtAt: manifest.builtAt, files } : undefined;
}

export const openAgentFile = (file: AgentDownload, dir = agentDownloadsDir()) =>
  createReadStream(join(dir, file.fileName));
