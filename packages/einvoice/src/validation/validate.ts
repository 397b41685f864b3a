import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { create } from "xmlbuilder2";
import { type CompiledSchematron, compileSchematron, SVRL } from "./schematron-compiler.ts";

/**
 * Validation of UBL-TR documents in batches: XSD with libxml2's `xmllint` (one process for all
 * documents) and schematron with Saxon-HE (one JVM per batch and schema). Both are Debian packages
 * (libxml2-utils, libsaxonhe-java + a JRE) that `.ci/run` installs when missing.
 */

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
/**
 * The project's shared docs sit next to the repository (`<repo>/../shared`), or where `EP_SHARED_DIR`
 * says. Found by walking up from this file, so that a copy of the repository nested deeper (Stryker's
 * sandbox under `<repo>/.stryker-tmp/`) still reads the vendor files in place.
 */
export function findSharedRoot(from: string, env = process.env.EP_SHARED_DIR): string {
  if (env) return resolve(env);
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "shared", "ground-truth"))) return join(dir, "shared");
    if (dirname(dir) === dir) return resolve(from, "../../../../../shared");
  }
}
export const sharedRoot = findSharedRoot(here);
export const groundTruth = {
  invoiceXsd: join(sharedRoot, "ground-truth/ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd"),
  gibSchematron: join(sharedRoot, "ground-truth/ubl-tr-schematron/Schematron/UBL-TR_Main_Schematron.xml"),
  gibSample: join(sharedRoot, "ground-truth/ubl-tr-schematron/TemelFaturaOrnegi.xml"),
};
/** Our arithmetic rules (GİB's schematron does not add amounts up). */
export const totalsSchematron = join(here, "totals.sch");

const saxonJar = () => process.env.SAXON_JAR ?? "/usr/share/java/Saxon-HE.jar";
const MAX_BUFFER = 256 * 1024 * 1024;

export interface XsdResult {
  valid: boolean;
  errors: string[];
}

function withBatchDir<T>(docs: string[], use: (dir: string, files: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "ep-einvoice-"));
  const files = docs.map((xml, i) => {
    const file = join(dir, "in", `doc${String(i).padStart(6, "0")}.xml`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, xml);
    return file;
  });
  return use(dir, files).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** Validates every document against the UBL 2.1 Invoice schema, in one xmllint process. */
export async function validateXsd(docs: string[], xsd = groundTruth.invoiceXsd): Promise<XsdResult[]> {
  if (docs.length === 0) return [];
  return withBatchDir(docs, async (_dir, files) => {
    const output = await run("xmllint", ["--noout", "--schema", xsd, ...files], {
      maxBuffer: MAX_BUFFER,
    }).then(
      (r) => r.stderr,
      // Exit code 3 = some document did not validate; the report is on stderr either way.
      (e: { stderr?: string; code?: number }) => {
        if (e.code !== 3 || e.stderr === undefined) throw e;
        return e.stderr;
      },
    );
    const lines = output.split("\n");
    return files.map((file) => {
      const own = lines.filter((l) => l.startsWith(`${file}:`) || l.startsWith(`${file} `));
      const valid = own.includes(`${file} validates`);
      if (!valid && !own.some((l) => l === `${file} fails to validate`))
        throw new Error(`xmllint gave no verdict for ${file}:\n${output.slice(0, 2000)}`);
      return {
        valid,
        errors: own.filter((l) => l.startsWith(`${file}:`)).map((l) => l.slice(file.length + 1)),
      };
    });
  });
}

export interface FailedAssert {
  id: string;
  location: string;
  text: string;
}

export interface SchematronResult {
  failed: FailedAssert[];
  /** Ids of every assert the document was checked against (the asserts of each rule that fired). */
  evaluated: Set<string>;
}

export class SchematronValidator {
  readonly compiled: CompiledSchematron;

  /** A schema file, or the schema itself (`{ xml }`, e.g. GİB's package assembled by `gibCurrentSchematron`). */
  constructor(schema: string | { xml: string }) {
    this.compiled = compileSchematron(typeof schema === "string" ? readFileSync(schema, "utf8") : schema.xml);
  }

  /** Runs the compiled rules over all documents in one Saxon run (one JVM start). */
  async validate(docs: string[]): Promise<SchematronResult[]> {
    if (docs.length === 0) return [];
    return withBatchDir(docs, async (dir, files) => {
      const out = join(dir, "out");
      mkdirSync(out);
      const xsltFile = join(dir, "compiled.xsl");
      writeFileSync(xsltFile, this.compiled.xslt);
      await run("java", ["-jar", saxonJar(), `-xsl:${xsltFile}`, `-s:${join(dir, "in")}`, `-o:${out}`], {
        maxBuffer: MAX_BUFFER,
      });
      return files.map((file) =>
        this.#read(readFileSync(join(out, file.slice(join(dir, "in").length + 1)), "utf8")),
      );
    });
  }

  #read(svrl: string): SchematronResult {
    const root = create(svrl).root();
    const failed: FailedAssert[] = [];
    const evaluated = new Set<string>();
    root.each(
      (child) => {
        const el = child.node as unknown as {
          namespaceURI: string | null;
          localName: string;
          textContent: string | null;
          getAttribute(name: string): string | null;
        };
        if (el.namespaceURI !== SVRL) return;
        if (el.localName === "fired-rule") {
          const key = `${el.getAttribute("pattern")}|${el.getAttribute("context")}`;
          for (const id of this.compiled.rules.get(key) ?? []) evaluated.add(id);
        } else if (el.localName === "failed-assert" || el.localName === "successful-report") {
          failed.push({
            id: el.getAttribute("id") ?? "",
            location: el.getAttribute("location") ?? "",
            text: (el.textContent ?? "").trim(),
          });
        }
      },
      false,
      false,
    );
    return { failed, evaluated };
  }
}

/** The `Invoice` element of a GİB envelope (StandardBusinessDocument) as a document of its own. */
export function invoiceOfEnvelope(envelopeXml: string): string {
  const found = create(envelopeXml).find(
    (n) => (n.node as unknown as { localName?: string }).localName === "Invoice",
    false,
    true,
  );
  if (!found) throw new Error("No Invoice element in the envelope");
  return found.toString({ prettyPrint: false });
}
