/**
 * The judge of the Dynamics AX 2012 connector: a WSDL and XSDs written in this folder from the public
 * artifacts each XSD names (the WSDL-generated PHP types of `etrias-nl/rase-connector` @b190fe4f and
 * Microsoft's AX 2012 AIF documentation, `MicrosoftDocs/DynamicsAX2012-technet` @3c6a15dc). The
 * connector's `soap` client is built from the same WSDL, the emulator validates every envelope with it
 * (xmllint), and the contract test judges every recorded request with it.
 */

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Client } from "soap";

export const AX_WSDL_PATH = fileURLToPath(new URL("./ax-2012.wsdl", import.meta.url));
/** SOAP 1.1 envelope: CallContext header, one service element (or a Fault with an AifFault) in the body. */
export const AX_ENVELOPE_XSD = fileURLToPath(new URL("./xsd/soap-envelope.xsd", import.meta.url));

/** Where the public artifact of the PHP types lives and which commit the XSDs were written from. */
export const RASE_REPO = "etrias-nl/rase-connector";
export const RASE_COMMIT = "b190fe4f";

export interface AxOperation {
  /** `SalesOrderService.create` */
  name: string;
  service: string;
  operation: string;
  soapAction: string;
}

let loaded: Promise<Client> | undefined;

/** A soap Client over the judge's WSDL (never used to call anything: it describes the service). */
export function loadAxWsdl(): Promise<Client> {
  // `soap` loads with the first use, not with a server that only might serve this sandbox.
  loaded ??= import("soap").then(({ createClientAsync }) => createClientAsync(AX_WSDL_PATH));
  return loaded;
}

interface BindingLike {
  methods: Record<string, { soapAction?: string }>;
}

/** Every operation of the WSDL's bindings, keyed by its SOAPAction. */
export async function axOperations(): Promise<Map<string, AxOperation>> {
  const client = await loadAxWsdl();
  const bindings = client.wsdl.definitions.bindings as unknown as Record<string, BindingLike>;
  const out = new Map<string, AxOperation>();
  for (const [bindingName, binding] of Object.entries(bindings)) {
    const service = bindingName.replace(/^BasicHttpBinding_/, "");
    for (const [operation, m] of Object.entries(binding.methods)) {
      const soapAction = m.soapAction ?? "";
      out.set(soapAction, { name: `${service}.${operation}`, service, operation, soapAction });
    }
  }
  return out;
}

export interface XmlVerdict {
  valid: boolean;
  errors: string[];
}

/** Validate a SOAP envelope with libxml2's xmllint against the judge's schemas (offline). */
export function validateAxEnvelope(xml: string, schema = AX_ENVELOPE_XSD): XmlVerdict {
  const run = spawnSync("xmllint", ["--nonet", "--noout", "--schema", schema, "-"], {
    input: xml,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error) throw new Error(`xmllint could not be run (install libxml2-utils): ${run.error.message}`);
  if (run.status === 0) return { valid: true, errors: [] };
  // Status 5 = the schema did not compile: a broken judge, never a verdict on the message.
  if (run.status === 5) throw new Error(`dynamics-ax judge: schema does not compile:\n${run.stderr}`);
  const errors = run.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/fails to validate$/.test(l));
  return { valid: false, errors: errors.length > 0 ? errors : [`xmllint exit ${run.status}`] };
}
