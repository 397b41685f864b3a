/**
 * The WSDL, loaded by the same SOAP library the connector uses (npm `soap`), from its ground-truth file,
 * its schema imports resolved in place. The judge's list of operations and SOAP actions comes from here.
 */

import type { Client } from "soap";
import { schemaFileFor, WSDL_PATH } from "./artifact";

export interface WsdlOperation {
  name: string;
  soapAction: string;
}

let loaded: Promise<Client> | undefined;

/** A soap Client over the ground-truth WSDL (never used to call anything: it describes the service). */
export function loadWsdlClient(): Promise<Client> {
  // `soap` loads with the first use, not with a server that only might serve this sandbox.
  loaded ??= import("soap").then(({ createClientAsync }) =>
    createClientAsync(WSDL_PATH, {
      wsdl_options: {
        // The XSDs are imported by the vendor's URLs: read the local part instead of going online.
        overrideImportLocation: (location: string) => schemaFileFor(location) ?? location,
      },
    }),
  );
  return loaded;
}

interface BindingLike {
  methods: Record<string, { soapAction?: string }>;
}

/** Every operation of the Integration binding with its SOAPAction. */
export async function wsdlOperations(): Promise<Map<string, WsdlOperation>> {
  const client = await loadWsdlClient();
  const bindings = client.wsdl.definitions.bindings as unknown as Record<string, BindingLike>;
  const out = new Map<string, WsdlOperation>();
  for (const binding of Object.values(bindings)) {
    for (const [name, m] of Object.entries(binding.methods)) {
      out.set(name, { name, soapAction: m.soapAction ?? "" });
    }
  }
  return out;
}
