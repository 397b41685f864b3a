/**
 * XSD validation with libxml2's `xmllint` (Debian libxml2-utils), the maintained validator this project
 * uses for XML (the UBL generator uses it too). No network: every vendor URL the schemas import is
 * resolved to its ground-truth file through an XML catalog written once per process.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { schemaParts } from "./artifact";

/** SOAP 1.1 envelope around exactly one element of the vendor's service schema. */
export const SOAP_ENVELOPE_SCHEMA = fileURLToPath(new URL("./soap-envelope.xsd", import.meta.url));

const escapeAttr = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

let catalog: string | undefined;

/** The XML catalog mapping each vendor schema URL to its local file. */
export function schemaCatalog(): string {
  if (catalog) return catalog;
  const dir = mkdtempSync(join(tmpdir(), "uyumsoft-judge-"));
  const entries = schemaParts()
    .map((p) => `  <uri name="${escapeAttr(p.url)}" uri="${escapeAttr(`file://${p.validationFile}`)}"/>`)
    .join("\n");
  const file = join(dir, "catalog.xml");
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">\n${entries}\n</catalog>\n`,
  );
  catalog = file;
  return file;
}

export interface XmlVerdict {
  valid: boolean;
  /** xmllint's messages, one per problem (empty when valid). */
  errors: string[];
}

/** Validate a document against a schema file (its imports resolved through the catalog). */
export function validateXml(xml: string, schema = SOAP_ENVELOPE_SCHEMA): XmlVerdict {
  const run = spawnSync("xmllint", ["--nonet", "--noout", "--schema", schema, "-"], {
    input: xml,
    encoding: "utf8",
    env: { ...process.env, XML_CATALOG_FILES: schemaCatalog() },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error) throw new Error(`xmllint could not be run (install libxml2-utils): ${run.error.message}`);
  if (run.status === 0) return { valid: true, errors: [] };
  // Status 5 = the schema itself did not compile: that is a broken judge, never a verdict on the request.
  if (run.status === 5) throw new Error(`uyumsoft judge: schema does not compile:\n${run.stderr}`);
  const errors = run.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/fails to validate$/.test(l));
  return { valid: false, errors: errors.length > 0 ? errors : [`xmllint exit ${run.status}`] };
}
