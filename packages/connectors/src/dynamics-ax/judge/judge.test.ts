import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules, rulesMissingFrom, unsourcedRules } from "../../testing/runtime-rules";
import { axOrderRef } from "../connector";
import { axOperations, RASE_COMMIT, validateAxEnvelope } from "./artifact";
import { AX_RULES } from "./rules";

const xsd = (name: string) => readFileSync(fileURLToPath(new URL(`./xsd/${name}`, import.meta.url)), "utf8");

/** The element names of a complexType of one of the judge's XSDs, in order. */
function elementsOf(file: string, type: string): string[] {
  const text = xsd(file);
  const start = text.indexOf(`<xs:complexType name="${type}">`);
  if (start < 0) throw new Error(`${type} not in ${file}`);
  const body = text.slice(start, text.indexOf("</xs:complexType>", start));
  return [...body.matchAll(/<xs:element name="([^"]+)"/g)].map((m) => m[1] ?? "");
}

/** The fetched public artifact (`fetch github:etrias-nl/rase-connector`), when this machine has it. */
const RASE_MIRROR = "/work/.mirror/etrias-nl+rase-connector/repo";

/** Property names of a WSDL-generated PHP type, in declaration order (the WSDL's element order). */
function phpProperties(type: string): string[] {
  const src = execFileSync("git", ["-C", RASE_MIRROR, "show", `${RASE_COMMIT}:src/SoapTypes/${type}.php`], {
    encoding: "utf8",
  });
  return [...src.matchAll(/protected \$(\w+)\s*=/g)]
    .map((m) => m[1] ?? "")
    .filter((n) => n !== "class" && n !== "action");
}

const env = (header: string, body: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header>${header}</s:Header><s:Body>${body}</s:Body></s:Envelope>`;
const ctx = `<CallContext xmlns="http://schemas.microsoft.com/dynamics/2010/01/datacontracts"><Company>dat</Company></CallContext>`;
const SVC = "http://schemas.microsoft.com/dynamics/2008/01/services";
const SO = "http://schemas.microsoft.com/dynamics/2008/01/documents/SalesOrder";

describe("dynamics-ax judge (WSDL + XSDs written from the rase-connector types and the AX 2012 docs)", () => {
  it("reads the six operations and their SOAP actions with the soap library", async () => {
    const ops = [...(await axOperations()).values()].map((o) => `${o.name} ${o.soapAction}`).sort();
    expect(ops).toEqual(
      [
        "InventoryOnHandService.read",
        "ItemService.findKeys",
        "ItemService.read",
        "SalesOrderService.create",
        "SalesOrderService.findKeys",
        "SalesOrderService.read",
      ].map((n) => {
        const [svc, op] = n.split(".");
        return `${n} http://schemas.microsoft.com/dynamics/2008/01/services/${svc}/${op}`;
      }),
    );
  });

  it("tells valid from invalid envelopes (order of fields, unknown fields, entity class, operators)", () => {
    const create = (table: string) =>
      env(
        ctx,
        `<SalesOrderServiceCreateRequest xmlns="${SVC}"><SalesOrder xmlns="${SO}"><SalesTable class="entity">${table}</SalesTable></SalesOrder></SalesOrderServiceCreateRequest>`,
      );
    expect(
      validateAxEnvelope(create("<CustAccount>C1</CustAccount><PurchOrderFormNum>1</PurchOrderFormNum>")),
    ).toEqual({
      valid: true,
      errors: [],
    });
    // AX writes and reads entity fields in the schema's order: PurchOrderFormNum before CustAccount is refused.
    expect(
      validateAxEnvelope(create("<PurchOrderFormNum>1</PurchOrderFormNum><CustAccount>C1</CustAccount>"))
        .valid,
    ).toBe(false);
    expect(validateAxEnvelope(create("<CustomerNumber>C1</CustomerNumber>")).valid).toBe(false);
    expect(
      validateAxEnvelope(
        env(
          ctx,
          `<SalesOrderServiceCreateRequest xmlns="${SVC}"><SalesOrder xmlns="${SO}"><SalesTable><CustAccount>C1</CustAccount></SalesTable></SalesOrder></SalesOrderServiceCreateRequest>`,
        ),
      ).errors.join(),
    ).toMatch(/class/);
    const find = (operator: string) =>
      env(
        ctx,
        `<SalesOrderServiceFindKeysRequest xmlns="${SVC}"><QueryCriteria xmlns="http://schemas.microsoft.com/dynamics/2006/02/documents/QueryCriteria"><CriteriaElement><DataSourceName>SalesTable</DataSourceName><FieldName>SalesId</FieldName><Operator>${operator}</Operator><Value1>1</Value1></CriteriaElement></QueryCriteria></SalesOrderServiceFindKeysRequest>`,
      );
    expect(validateAxEnvelope(find("Equal")).valid).toBe(true);
    expect(validateAxEnvelope(find("Like")).valid).toBe(false);
    // A header other than the CallContext, and a body element of no service, are refused.
    expect(validateAxEnvelope(env(`<Foo xmlns="urn:x"/>${ctx}`, "")).valid).toBe(false);
    expect(validateAxEnvelope(env(ctx, `<Unknown xmlns="${SVC}"/>`)).valid).toBe(false);
  });

  it.skipIf(!existsSync(RASE_MIRROR))(
    "stays in step with the WSDL-generated PHP types: every element exists there, in the same order",
    () => {
      const pairs: Array<[string, string, string]> = [
        ["sales-order.xsd", "AxdSalesOrder", "AxdSalesOrder"],
        ["sales-order.xsd", "AxdEntity_SalesTable", "AxdEntity_SalesTable"],
        ["sales-order.xsd", "AxdEntity_SalesLine", "AxdEntity_SalesLine"],
        ["sales-order.xsd", "AxdEntity_InventDim", "AxdEntity_InventDim"],
        ["query-criteria.xsd", "CriteriaElement", "CriteriaElement"],
        ["entity-key.xsd", "KeyField", "KeyField"],
        ["fault.xsd", "AifFault", "AifFault"],
        ["fault.xsd", "FaultMessageList", "FaultMessageList"],
        ["fault.xsd", "FaultMessage", "FaultMessage"],
      ];
      let checked = 0;
      for (const [file, type, php] of pairs) {
        const ours = elementsOf(file, type);
        const theirs = phpProperties(php);
        const missing = ours.filter((n) => !theirs.includes(n));
        expect(missing, `${type}: not in ${php}.php`).toEqual([]);
        const positions = ours.map((n) => theirs.indexOf(n));
        expect(positions, `${type}: order differs from ${php}.php`).toEqual(
          [...positions].sort((a, b) => a - b),
        );
        checked += ours.length;
      }
      expect(checked).toBe(56);
    },
  );
});

describe("Dynamics AX runtime rules", () => {
  const port = { at: 0, method: "POST", path: "/MicrosoftDynamicsAXAif60/EntegrasyonPaneli/xppservice.svc" };
  const create = (purchOrderFormNum: string): RecordedRequest => ({
    ...port,
    query: {},
    headers: {
      soapaction: '"http://schemas.microsoft.com/dynamics/2008/01/services/SalesOrderService/create"',
    },
    body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><SalesOrderServiceCreateRequest><SalesOrder><SalesTable class="entity"><PurchOrderFormNum>${purchOrderFormNum}</PurchOrderFormNum></SalesTable></SalesOrder></SalesOrderServiceCreateRequest></s:Body></s:Envelope>`,
  });

  it("refuses a PurchOrderFormNum over CustPurchaseOrder's 20 characters, counting entities as one", () => {
    expect(applyRuntimeRules(AX_RULES, create("A".repeat(21))).map((v) => v.rule)).toEqual([
      "dynamics-ax.edt-string-size",
    ]);
    expect(applyRuntimeRules(AX_RULES, create(`${"A".repeat(19)}&amp;`))).toEqual([]);
    expect(applyRuntimeRules(AX_RULES, create(axOrderRef("HB-2026-11-28-000123456789")))).toEqual([]);
    expect(axOrderRef("IK-1001")).toBe("IK-1001");
    expect(unsourcedRules(AX_RULES)).toEqual([]);
    expect(
      rulesMissingFrom(readFileSync(new URL("../VERIFIED.md", import.meta.url), "utf8"), AX_RULES),
    ).toEqual([]);
  });
});
