/**
 * Where the Nebim V3 judge comes from: the public documentation repository
 * `cemyeten/nebim-v3-integrator-docs` (kind 2/4 in artifacts-by-system.md). Its `examples/*.txt` are payload
 * samples of `IntegratorService/Post` (one JSON model per file, `ModelType` selecting the business object);
 * the vendor PDF `references/NEBIM V3 Integrator Document-EN.pdf` (blob 1cfce032, unchanged since commit
 * 017256b8) gives, for the models it covers, each field's type, maximum length and whether it is mandatory.
 */

export const NEBIM_DOCS = {
  repository: "cemyeten/nebim-v3-integrator-docs",
  /** The commit the samples were read at (the newest snapshot; the PDF is the same blob as at 017256b8). */
  commit: "ced78ec9b0ce46f341d3599f3e8f998d5aca5408",
  pdf: {
    path: "references/NEBIM V3 Integrator Document-EN.pdf",
    blob: "1cfce032eab05381b7912bc3e5b129f5b579d578",
  },
  examples: "examples/",
  errors: "docs/99-errors.md",
  connect: ["docs/01-2-connect-session.md", "docs/01-3-connect-token.md"],
  runProc: "docs/03-call-proc.md",
} as const;

/** Where a fetched snapshot of the repository lives (a bare git directory), for re-deriving the judge. */
export const NEBIM_DOCS_MIRROR =
  process.env.NEBIM_DOCS_REPO ?? "/work/.mirror/cemyeten+nebim-v3-integrator-docs/repo";
