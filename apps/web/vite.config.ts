import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

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

/** The web app: `vite` serves it with /api proxied to the server; `vite build` writes dist/ for the server. */
export default defineConfig({
  plugins: [react(), contractsSideEffectFree()],
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
    chunkSizeWarningLimit: 700,
  },
});
