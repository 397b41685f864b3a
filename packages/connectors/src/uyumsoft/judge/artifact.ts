/**
 * Where the judge's artifact lives and how its parts find each other. The vendor's WSDL and XSDs are read
 * in place from the shared ground truth (never copied into the repo). They import each other by the
 * vendor's absolute URLs (`…/Services/Integration?xsd=xsdN`), not by relative paths, so each URL is
 * mapped to the local file whose targetNamespace is the one the import names.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `shared/ground-truth/` next to the repository root (or under `EP_SHARED_DIR`), found by walking up from
 * this file: a copy of the repository nested deeper (Stryker's sandbox under `<repo>/.stryker-tmp/`) reads
 * the vendor files in place too. Same rule as einvoice's `findSharedRoot`.
 */
function groundTruthDir(from: string, env = process.env.EP_SHARED_DIR): string {
  if (env) return `${join(resolve(env), "ground-truth")}/`;
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "shared", "ground-truth"))) return `${join(dir, "shared", "ground-truth")}/`;
    // This file is packages/connectors/src/uyumsoft/judge/: the repository's parent by default.
    if (dirname(dir) === dir)
      return fileURLToPath(new URL("../../../../../../shared/ground-truth/", import.meta.url));
  }
}
export const GROUND_TRUTH = groundTruthDir(dirname(fileURLToPath(import.meta.url)));
export const UYUMSOFT_DIR = `${GROUND_TRUTH}uyumsoft/`;
export const WSDL_PATH = `${UYUMSOFT_DIR}Integration.wsdl`;

export const XMLDSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
/**
 * The service's generated xmldsig part (its `xs:choice` of XPath | xs:any) breaks XSD's unique particle
 * attribution, and libxml2 refuses to compile it. The namespace is W3C's, so that import is resolved to
 * W3C's own schema as OASIS ships it with UBL 2.1 (also ground truth). Every other part is the vendor's.
 */
export const XMLDSIG_SCHEMA = `${GROUND_TRUTH}ubl-2.1/xsd/common/UBL-xmldsig-core-schema-2.1.xsd`;

export interface SchemaPart {
  /** The vendor URL the WSDL and XSDs import it by. */
  url: string;
  namespace: string;
  /** The vendor's local file (absolute path), served as is by the emulator. */
  file: string;
  /** What xmllint compiles for this part (the vendor's file except for xmldsig, see above). */
  validationFile: string;
  /** `xsd0` … `xsd8`, the service's own name of the part. */
  name: string;
}

function targetNamespace(file: string): string | undefined {
  return readFileSync(file, "utf8").match(/targetNamespace="([^"]+)"/)?.[1];
}

let parts: SchemaPart[] | undefined;

/** The nine schema parts, derived from the WSDL's imports and the XSD files' target namespaces. */
export function schemaParts(): SchemaPart[] {
  if (parts) return parts;
  const wsdl = readFileSync(WSDL_PATH, "utf8");
  const byNs = new Map<string, string>();
  for (const f of readdirSync(UYUMSOFT_DIR).filter((n) => n.endsWith(".xsd"))) {
    const ns = targetNamespace(`${UYUMSOFT_DIR}${f}`);
    if (ns) byNs.set(ns, `${UYUMSOFT_DIR}${f}`);
  }
  const found: SchemaPart[] = [];
  for (const m of wsdl.matchAll(/<xsd:import schemaLocation="([^"]+)" namespace="([^"]+)"/g)) {
    const [, url = "", namespace = ""] = m;
    const file = byNs.get(namespace);
    if (!file) throw new Error(`uyumsoft judge: no XSD file for ${namespace}`);
    const validationFile = namespace === XMLDSIG_NS ? XMLDSIG_SCHEMA : file;
    found.push({ url, namespace, file, validationFile, name: url.replace(/^.*[?&]xsd=/, "") });
  }
  parts = found;
  return found;
}

/** The local file of a vendor schema URL, whatever host serves it (`?xsd=xsdN` names the part). */
export function schemaFileFor(url: string): string | undefined {
  const name = url.match(/[?&]xsd=(xsd\d+)/i)?.[1];
  return schemaParts().find((p) => p.name === name)?.file;
}
