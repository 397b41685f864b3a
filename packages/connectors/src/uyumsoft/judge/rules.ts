/**
 * Uyumsoft e-Dönüşüm Integration service: its runtime rules (what the WSDL's XSDs cannot say; VERIFIED.md
 * lists them with their sources) and the version pin. The contract test applies the rules to every
 * recorded request beside the XSD judge; the emulator refuses what they refuse, as the service does
 * (`Response/@IsSucceded="false"` with a message, inside HTTP 200).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const UYUMSOFT_VERSION_PIN: ApiVersionPin = {
  system: "uyumsoft",
  api: "Uyumsoft e-Dönüşüm Integration service",
  version: "Integration.wsdl (GIBFramework 4fe3c197)",
  endOfSupport: null,
  noDateReason: "the SOAP service is unversioned; GİB dates changes of UBL-TR, not of this service",
  source: "../shared/ground-truth/uyumsoft/Integration.wsdl",
};

/** The UBL says the sale was made on the internet (the phrase GİB's e-Arşiv rules ask on such a sale). */
const INTERNET_NOTE = /<(?:[\w.-]+:)?Note>[^<]*[İIi]nternet [ÜUü]zerinden[^<]*<\/(?:[\w.-]+:)?Note>/;
const E_ARCHIVE = /<(?:[\w.-]+:)?ProfileID>EARSIVFATURA<\/(?:[\w.-]+:)?ProfileID>/;
const filled = (block: string, name: string) =>
  new RegExp(`<(?:[\\w.-]+:)?${name}>\\s*[^<\\s][^<]*</(?:[\\w.-]+:)?${name}>`).test(block);

export const uyumsoftRules: RuntimeRule[] = [
  {
    id: "uyumsoft.earchive.internet-sales-info",
    kind: "required-directive",
    description:
      "An e-Arşiv invoice for an internet sale is sent with EArchiveInvoiceInfo/InternetSalesInfo holding WebAddress, PaymentType and PaymentDate.",
    sources: [
      {
        kind: "vendor-schema",
        ref: "../shared/ground-truth/uyumsoft/Integration1.xsd (EArchiveInvoiceInformation, InternetSalesInformation; XsltViewType eArchiveInternetSalesInvoice)",
        says: "the service keeps a separate internet-sales block (WebAddress, PaymentMidierName, PaymentType, PaymentDate, ShipmentInfo) and a separate view for internet-sale e-Arşiv invoices",
      },
      {
        kind: "public-code",
        ref: "npm @erennyuksell/uyumsoft-edonusum-unofficial-sdk@0.2.0 dist/index.js buildUyumsoftInvoiceInfo",
        says: "the e-Arşiv info of an invoice is mapped to EArchiveInvoiceInfo with InternetSalesInfo {WebAddress, PaymentMidierName, PaymentType, PaymentDate}",
      },
      {
        kind: "vendor-doc",
        ref: "izibiz/api-documentation@8092d97597ecfa6c1fdc423a2d3415d3f0df530b:source/includes/earsiv/_writetoarchiveextended.md",
        says: "another integrator: an e-Arşiv for a sale made on the internet must be sent as type INTERNET (its own internet-sale block), others as NORMAL",
      },
    ],
    check: (r: RecordedRequest) => {
      const action = String(r.headers.soapaction ?? "");
      if (r.method !== "POST" || !/(SendInvoice|SaveAsDraft)"?$/.test(action)) return [];
      const body = typeof r.body === "string" ? r.body : "";
      return body
        .split(/<(?:[\w.-]+:)?InvoiceInfo\b/)
        .slice(1)
        .flatMap((info, i) => {
          if (!E_ARCHIVE.test(info) || !INTERNET_NOTE.test(info)) return [];
          const block = /<(?:[\w.-]+:)?InternetSalesInfo\b[\s\S]*?<\/(?:[\w.-]+:)?InternetSalesInfo>/.exec(
            info,
          )?.[0];
          if (!block) return [`invoice ${i + 1}: an internet-sale e-Arşiv without InternetSalesInfo`];
          return ["WebAddress", "PaymentType", "PaymentDate"]
            .filter((name) => !filled(block, name))
            .map((name) => `invoice ${i + 1}: InternetSalesInfo without ${name}`);
        });
    },
  },
];
