import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import JSZip from "jszip";
import { create } from "xmlbuilder2";
import { type SchematronResult, SchematronValidator } from "./validate.ts";

/**
 * GİB's current e-Fatura package, read in place from a fetched snapshot of the public repository
 * `phax/phive-rules` (folder `phive-rules-turkey/docs/`), which keeps GİB's own downloads byte for byte
 * (`e-FaturaPaketi.zip`: schematron release 20260312; `UBL-TR1.2.1_Paketi.zip`: `general.xslt` and
 * GİB's sample invoices). Nothing of it is copied into this repository; the blobs are pinned, so a
 * changed snapshot fails loudly instead of changing what we validate against.
 */
export const GIB_PACKAGE = {
  repository: "phax/phive-rules",
  commit: "432f0e9a8cff5c03d06625abe7a5fd8e7e346a64",
  eFaturaPaketi: {
    path: "phive-rules-turkey/docs/e-FaturaPaketi.zip",
    blob: "f76843e2e732a3ea9c5552e54f8af56dd7c75768",
    /** Last entry of `e-FaturaPaketi/schematron/History.txt`. */
    schematronRelease: "20260312",
  },
  ublTrPaketi: {
    path: "phive-rules-turkey/docs/UBL-TR1.2.1_Paketi.zip",
    blob: "ec0e01d84d3eccfa266bf7681366c2427aeeb4a6",
  },
} as const;

export const GIB_PACKAGE_MIRROR = process.env.EP_GIB_PACKAGE_REPO ?? "/work/.mirror/phax+phive-rules/repo";

const SCH = "http://purl.oclc.org/dsdl/schematron";

/** A file of a fetched public repository, by its pinned blob (the snapshot's git directory, read in place). */
export function mirrorBlob(
  source: { repository: string; mirror: string },
  sha: string,
  path: string,
): Buffer {
  if (!existsSync(source.mirror))
    throw new Error(
      `${path} is read from a fetched snapshot of github:${source.repository} (blob ${sha}), expected at ` +
        `${source.mirror}; it is missing. Fetch that repository (the search tool's fetch github:${source.repository}) ` +
        "or point the environment variable named in packages/einvoice/README.md at its git directory.",
    );
  try {
    return execFileSync("git", ["--git-dir", source.mirror, "cat-file", "blob", sha], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    throw new Error(
      `The snapshot at ${source.mirror} has no blob ${sha} (${source.repository}:${path}): ${(e as Error).message}`,
    );
  }
}

const blob = (sha: string, path: string) =>
  mirrorBlob({ repository: GIB_PACKAGE.repository, mirror: GIB_PACKAGE_MIRROR }, sha, path);

/**
 * izibiz's public API documentation (an integrator's own samples, kind 2): e-Arşiv samples with the sending
 * type and the internet-sale note (FATURA_21/22), a discounted TICARIFATURA (FATURA_9) for the totals'
 * convention, the e-Arşiv send and cancel pages.
 */
export const IZIBIZ_DOCS = {
  repository: "izibiz/api-documentation",
  commit: "8092d97597ecfa6c1fdc423a2d3415d3f0df530b",
  mirror: process.env.EP_IZIBIZ_DOCS_REPO ?? "/work/.mirror/izibiz+api-documentation/repo",
  discountSample: {
    path: "source/resource/xml/FATURA_9.xml",
    blob: "80f42f6cd1042721ebc58ac2f6b89d98030c09da",
  },
  earsivSample: {
    path: "source/resource/xml/FATURA_21.xml",
    blob: "b040195099901cad0a95e731b4bfd7089cafa356",
  },
} as const;

async function unzip(sha: string, path: string, names: string[]): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(blob(sha, path));
  const out = new Map<string, Buffer>();
  for (const name of names) {
    const file = zip.file(name);
    if (!file) throw new Error(`${path} has no ${name}`);
    out.set(name, await file.async("nodebuffer"));
  }
  return out;
}

/** Which of GİB's validations a document goes through: `type` in GİB's main schematron. */
export type GibDocumentType = "efatura" | "earchive";

/**
 * GİB's main schematron as one document our compiler reads: the `sch:include href="file#id"` parts
 * (code lists, abstract rules) inlined; the rules GİB writes at schema level (`//cbc:IssueDate`,
 * `//@currencyID`, `//@unitCode`, …, which GİB's own engine applies) gathered in a pattern `general`;
 * `type` set for e-Fatura or e-Arşiv (GİB's file leaves it to the caller).
 */
export async function gibCurrentSchematron(type: GibDocumentType): Promise<string> {
  const dir = "e-FaturaPaketi/schematron/";
  const files = await unzip(GIB_PACKAGE.eFaturaPaketi.blob, GIB_PACKAGE.eFaturaPaketi.path, [
    `${dir}UBL-TR_Main_Schematron.xml`,
    `${dir}UBL-TR_Common_Schematron.xml`,
    `${dir}UBL-TR_Codelist.xml`,
  ]);
  const parse = (name: string) => create(files.get(`${dir}${name}`)?.toString("utf8") ?? "");
  const main = parse("UBL-TR_Main_Schematron.xml");
  const root = main.root();
  type Node = {
    nodeType: number;
    namespaceURI: string | null;
    localName: string | null;
    parentNode: Node | null;
    childNodes: ArrayLike<Node>;
    ownerDocument: { importNode(n: Node, deep: boolean): Node } | null;
    getAttribute(n: string): string | null;
    setAttribute(n: string, v: string): void;
    insertBefore(n: Node, ref: Node | null): Node;
    appendChild(n: Node): Node;
    removeChild(n: Node): Node;
  };
  const rootNode = root.node as unknown as Node;
  const elements = (n: Node) => Array.from(n.childNodes).filter((c) => c.nodeType === 1);
  const isSch = (n: Node, name: string) => n.namespaceURI === SCH && n.localName === name;
  const doc = rootNode.ownerDocument;
  if (!doc) throw new Error("GİB schematron: no document");

  for (const include of elements(rootNode).filter((n) => isSch(n, "include"))) {
    const [file = "", id] = (include.getAttribute("href") ?? "").split("#");
    const part = parse(file).root().node as unknown as Node;
    const wanted = id ? elements(part).find((n) => n.getAttribute("id") === id) : (part as Node | undefined);
    if (!wanted) throw new Error(`GİB schematron: ${file}#${id} not found`);
    rootNode.insertBefore(doc.importNode(wanted, true), include);
    rootNode.removeChild(include);
  }
  const general = elements(rootNode).filter((n) => isSch(n, "rule"));
  if (general.length) {
    const pattern = root.ele(SCH, "sch:pattern", { id: "general" }).node as unknown as Node;
    for (const rule of general) {
      rootNode.removeChild(rule);
      pattern.appendChild(rule);
    }
  }
  const typeLet = elements(rootNode).find((n) => n.localName === "let" && n.getAttribute("name") === "type");
  if (!typeLet) throw new Error("GİB schematron: no let type");
  typeLet.setAttribute("value", `'${type}'`);
  return main.end({ prettyPrint: false });
}

/** GİB's standard invoice display (`general.xslt`) and sample invoices of the UBL-TR 1.2.1 package. */
export async function gibUblTrPackage(names: string[]): Promise<Map<string, Buffer>> {
  return unzip(
    GIB_PACKAGE.ublTrPaketi.blob,
    GIB_PACKAGE.ublTrPaketi.path,
    names.map((n) => `UBLTR_1.2.1_Paketi/xml/${n}`),
  ).then((m) => new Map([...m].map(([k, v]) => [k.slice("UBLTR_1.2.1_Paketi/xml/".length), v])));
}

/**
 * GİB's current schematron for our documents: an EARSIVFATURA is checked with `type` 'earchive', every
 * other profile with 'efatura' (as GİB's e-Arşiv and e-Fatura systems do). One Saxon run per type.
 */
export class GibValidator {
  private constructor(
    readonly efatura: SchematronValidator,
    readonly earchive: SchematronValidator,
  ) {}

  static async current(): Promise<GibValidator> {
    const [efatura, earchive] = await Promise.all([
      gibCurrentSchematron("efatura"),
      gibCurrentSchematron("earchive"),
    ]);
    return new GibValidator(
      new SchematronValidator({ xml: efatura }),
      new SchematronValidator({ xml: earchive }),
    );
  }

  async validate(docs: string[]): Promise<SchematronResult[]> {
    const isEarsiv = docs.map((d) => d.includes("<cbc:ProfileID>EARSIVFATURA</cbc:ProfileID>"));
    const [ea, ef] = await Promise.all([
      this.earchive.validate(docs.filter((_d, i) => isEarsiv[i])),
      this.efatura.validate(docs.filter((_d, i) => !isEarsiv[i])),
    ]);
    let a = 0;
    let f = 0;
    return isEarsiv.map((e) => (e ? ea[a++] : ef[f++]) as SchematronResult);
  }
}
