import type { FastifyStaticOptions } from "@fastify/static";

/** Vite writes content-hashed files under assets/: a new build gives new names, so they never change. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/;

/**
 * How the built web app is served: the brotli or gzip file the build wrote next to each asset when
 * the browser accepts it, hashed assets cached for a year as immutable, everything else (index.html
 * first) revalidated on every load so a new deployment shows at once.
 */
export function webStaticOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed twins are found next to their file; they need no routes of their own.
    globIgnore: ["**/*.br", "**/*.gz"],
    cacheControl: false,
    setHeaders(res, path) {
      res.setHeader("vary", "accept-encoding");
      res.setHeader(
        "cache-control",
        HASHED_ASSET.test(path) ? "public, max-age=31536000, immutable" : "no-cache",
      );
    },
  };
}
