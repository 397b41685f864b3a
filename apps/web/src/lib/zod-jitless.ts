import { config } from "zod/v4/core";

/**
 * Zod compiles fast object parsers with `new Function` (and probes for it), which the panel's
 * Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') refuses and reports. Imported
 * first by main.tsx, before any schema exists, so zod never tries.
 */
config({ jitless: true });
