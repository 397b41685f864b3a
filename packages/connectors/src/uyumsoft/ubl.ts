/**
 * The UBL-TR document inside a SendInvoice / SaveAsDraft message. The service does not take the document
 * as a string: `InvoiceInfo/Invoice` is typed `InvoiceType` of the UBL Invoice-2 namespace, so the
 * document's root is replaced by that element and its content goes in as XML, with the namespace
 * declarations of the root carried over. Only the root's start and end tags are located here; the content
 * is passed through byte for byte (the emulator validates it against the service's XSD).
 */

import { ConnectorError } from "../sdk/errors";

export interface UblBody {
  /** Namespace declarations of the document's root (`xmlns:cbc` …), to put on the new element. */
  namespaces: Record<string, string>;
  /** Everything between the root's start and end tags. */
  inner: string;
}

const ROOT = /^\s*(?:<\?xml[^?]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<((?:[\w.-]+:)?Invoice)\b([^>]*)>/;

export function splitUblInvoice(xml: string): UblBody {
  const start = ROOT.exec(xml);
  const rootName = start?.[1];
  if (!start || !rootName) {
    throw new ConnectorError("uyumsoft: the document is not a UBL Invoice", {
      reason: "validation",
      system: "uyumsoft",
      operation: "SendInvoice",
    });
  }
  const closing = `</${rootName}>`;
  const end = xml.lastIndexOf(closing);
  if (end < start[0].length || xml.slice(end + closing.length).trim() !== "") {
    throw new ConnectorError("uyumsoft: the UBL Invoice is not closed", {
      reason: "validation",
      system: "uyumsoft",
      operation: "SendInvoice",
    });
  }
  const namespaces: Record<string, string> = {};
  // Prefixed declarations only: the new element is the service's own (tempuri) one, and a default
  // namespace carried over would move it into the UBL namespace. UBL's children are all prefixed
  // (cbc:, cac:, ext:), so nothing inside relies on the root's default namespace.
  for (const m of (start[2] ?? "").matchAll(/\s(xmlns:[\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const [, name = "", dq, sq] = m;
    namespaces[name] = dq ?? sq ?? "";
  }
  return { namespaces, inner: xml.slice(start[0].length, end) };
}
