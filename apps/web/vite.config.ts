import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { tr as sharedTr } from "../../packages/contracts/src/messages/tr.ts";

/**
 * @ep/contracts is pure declarations (schemas, enums, catalogues) but its package.json does not
 * say so; marking it side-effect free lets the bundler drop what a chunk does not use, so zod
 * stays out of the entry chunk (only the forms need it).
 */
function contractsSideEffectFree(): Plugin {
  return {
    name: "ep:contracts-side-effect-free",
    transform(code, id) {
      if (id.includes("/packages/contracts/src/")) return { code, map: null, moduleSideEffects: false };
      return null;
    },
  };
}

/**
 * The groups of the shared Turkish catalogue that the signed-out screens use: the zod schemas'
 * `validation` and `request` keys and the account answers' `api` texts. They ship in the entry as
 * `virtual:signed-out-messages` (taken from @ep/contracts when the build starts, so the texts stay in
 * one place); the whole catalogue (67 kB, 18 kB gzip) loads with the signed-in screens.
 */
export const SIGNED_OUT_GROUPS = ["validation", "api", "request"] as const;

function signedOutMessages(): Plugin {
  const id = "virtual:signed-out-messages";
  return {
    name: "ep:signed-out-messages",
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const groups = Object.fromEntries(SIGNED_OUT_GROUPS.map((group) => [group, sharedTr[group]]));
      return `export default ${JSON.stringify(groups)};`;
    },
  };
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map)$/;

/**
 * Writes a .br and a .gz twin next to every compressible file of the build, once, at the highest
 * levels; the server sends the twin the browser accepts instead of compressing on each request.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "ep:precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const raw = await readFile(path);
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: 9 }),
          ]);
          // A twin that saves nothing is not worth a second file.
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gzipped.length < raw.length) await writeFile(`${path}.gz`, gzipped);
        }),
      );
    },
  };
}

/** The web app: `vite` serves it with /api proxied to the server; `vite build` writes dist/ for the server. */
export default defineConfig({
  plugins: [react(), contractsSideEffectFree(), signedOutMessages(), precompress()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: {
    port: 5173,
    // The API server; API_PROXY_TARGET points elsewhere when it runs on another port.
    proxy: {
      "/api": { target: process.env.API_PROXY_TARGET ?? "http://localhost:3000", changeOrigin: true },
    },
  },
  build: {
    outDir: "dist",
    manifest: true,
    emptyOutDir: true,
    sourcemap: false,
    // exceljs (930 kB, loaded only when someone exports a spreadsheet) is the one chunk above 700 kB.
    chunkSizeWarningLimit: 1000,
  },
});
