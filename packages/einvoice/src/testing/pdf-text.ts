import { inflateSync } from "node:zlib";

/**
 * The text a PDF written by pdfkit draws, page by page, decoded the way a reader does it: the content
 * stream's `Tf` picks a font resource, its hex glyph strings (`TJ`) map to characters through that font's
 * `ToUnicode` CMap. Enough for pdfkit's output (uncompressed object dictionaries, Flate streams); a test
 * helper, not a general PDF parser.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const objects = new Map<string, { dict: string; stream?: string }>();
  for (const m of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2] ?? "";
    const at = body.search(/stream\r?\n/);
    if (at < 0) {
      objects.set(m[1] ?? "", { dict: body });
      continue;
    }
    const start = at + (body.slice(at).startsWith("stream\r\n") ? 8 : 7);
    const bytes = Buffer.from(
      body.slice(start, body.lastIndexOf("endstream")).replace(/\r?\n$/, ""),
      "latin1",
    );
    const dict = body.slice(0, at);
    let stream: string;
    try {
      stream = dict.includes("/FlateDecode")
        ? inflateSync(bytes).toString("latin1")
        : bytes.toString("latin1");
    } catch {
      stream = bytes.toString("latin1");
    }
    objects.set(m[1] ?? "", { dict, stream });
  }
  const ref = (dict: string, key: string) => new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1];
  const cmapOf = (fontObj: string): Map<string, string> => {
    const font = objects.get(fontObj);
    const map = new Map<string, string>();
    const cmap = font && objects.get(ref(font.dict, "ToUnicode") ?? "")?.stream;
    if (!cmap) return map;
    for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
      for (const e of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
        map.set((e[1] ?? "").toLowerCase(), hexToText(e[2] ?? ""));
    for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
      for (const e of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
        const first = Number.parseInt(e[1] ?? "0", 16);
        const width = (e[1] ?? "").length;
        let i = 0;
        for (const t of (e[3] ?? "").matchAll(/<([0-9a-fA-F]+)>/g)) {
          map.set((first + i).toString(16).padStart(width, "0"), hexToText(t[1] ?? ""));
          i += 1;
        }
      }
    return map;
  };
  const pages: string[] = [];
  for (const [, page] of objects) {
    if (!/\/Type \/Page\b/.test(page.dict)) continue;
    const content = objects.get(ref(page.dict, "Contents") ?? "")?.stream ?? "";
    const resources = objects.get(ref(page.dict, "Resources") ?? "")?.dict ?? page.dict;
    const fontDict = /\/Font\s*<<([\s\S]*?)>>/.exec(resources)?.[1] ?? "";
    const fonts = new Map(
      [...fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)].map((f) => [f[1] ?? "", cmapOf(f[2] ?? "")] as const),
    );
    let current = new Map<string, string>();
    const out: string[] = [];
    for (const op of content.matchAll(/\/(\w+) [\d.]+ Tf|\[([^\]]*)\] TJ|ET/g)) {
      if (op[1]) current = fonts.get(op[1]) ?? new Map();
      else if (op[2] !== undefined)
        out.push(
          [...op[2].matchAll(/<([0-9a-fA-F]+)>/g)]
            .map(
              (h) =>
                (h[1] ?? "")
                  .match(/.{4}/g)
                  ?.map((g) => current.get(g.toLowerCase()) ?? "?")
                  .join("") ?? "",
            )
            .join(""),
        );
      else out.push("\n");
    }
    pages.push(out.join(""));
  }
  return pages.join("\f");
}

function hexToText(hex: string): string {
  const units: number[] = [];
  for (let i = 0; i + 4 <= hex.length; i += 4) units.push(Number.parseInt(hex.slice(i, i + 4), 16));
  return String.fromCharCode(...units);
}
