import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces.js";

/**
 * Compiles an ISO Schematron schema (XPath 2 binding) into an XSLT 3.0 stylesheet that Saxon-HE runs,
 * writing SVRL (`failed-assert`, `successful-report`, `fired-rule`).
 *
 * Why our own compiler: the ISO "skeleton" XSLT and SchXslt are published on GitHub/Maven only (neither
 * npm nor Debian carries them), and the pure-JS `node-schematron@2.1.0` has no abstract rules, which
 * GİB's rules are built on (every concrete rule is a list of `<extends rule="…"/>`).
 * Covered: `ns`, `let` (schema, pattern and rule level), `pattern`, `rule` (first matching rule of a
 * pattern wins, as ISO says), abstract rules + `extends`, `assert`, `report`, `name`, `value-of`.
 * Not covered (GİB does not use them): phases, `include` (GİB's combined file has its includes
 * expanded), abstract patterns, `diagnostics`.
 */

const SCH = "http://purl.oclc.org/dsdl/schematron";
const XSL = "http://www.w3.org/1999/XSL/Transform";
export const SVRL = "http://purl.oclc.org/dsdl/svrl";
const XS = "http://www.w3.org/2001/XMLSchema";

/** The subset of the DOM that xmlbuilder2 exposes and we read. */
interface DomNode {
  nodeType: number;
  namespaceURI: string | null;
  localName: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

export interface CompiledSchematron {
  xslt: string;
  /** Every assert/report the stylesheet can evaluate: id -> the rule (context) and pattern it belongs to. */
  asserts: Map<string, { pattern: string; abstractRule?: string }>;
  /** Concrete rules, in document order: `<pattern>|<context>` -> ids of the asserts it evaluates. */
  rules: Map<string, string[]>;
}

function children(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).filter((c) => c.nodeType === 1);
}
function isSch(node: DomNode, name: string): boolean {
  return node.namespaceURI === SCH && node.localName === name;
}
function attr(node: DomNode, name: string): string | undefined {
  return node.getAttribute?.(name) ?? undefined;
}
function required(node: DomNode, name: string): string {
  const value = attr(node, name);
  if (value === undefined) throw new Error(`Schematron: <${node.localName}> without @${name}`);
  return value;
}

export function compileSchematron(schemaXml: string): CompiledSchematron {
  const root = (create(schemaXml).root().node as unknown as DomNode) ?? undefined;
  if (!root || !isSch(root, "schema")) throw new Error("Schematron: root is not sch:schema");

  const namespaces = new Map<string, string>([["xs", XS]]);
  const globals: DomNode[] = [];
  const abstractRules = new Map<string, DomNode>();
  const patterns: DomNode[] = [];
  for (const child of children(root)) {
    if (isSch(child, "ns")) namespaces.set(required(child, "prefix"), required(child, "uri"));
    else if (isSch(child, "let")) globals.push(child);
    else if (isSch(child, "pattern")) {
      patterns.push(child);
      for (const inner of children(child)) {
        // Pattern-level lets are global in GİB's combined file (the code lists live in pattern "codes").
        if (isSch(inner, "let")) globals.push(inner);
        if (isSch(inner, "rule") && attr(inner, "abstract") === "true")
          abstractRules.set(required(inner, "id"), inner);
      }
    }
  }

  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const sheet = doc.ele(XSL, "xsl:stylesheet", { version: "3.0" });
  for (const [prefix, uri] of namespaces) sheet.att("http://www.w3.org/2000/xmlns/", `xmlns:${prefix}`, uri);
  sheet.att("http://www.w3.org/2000/xmlns/", "xmlns:svrl", SVRL);
  sheet.att("exclude-result-prefixes", [...namespaces.keys()].join(" "));
  sheet.ele(XSL, "xsl:output", { method: "xml", indent: "no", encoding: "UTF-8" });
  for (const g of globals)
    sheet.ele(XSL, "xsl:variable", { name: required(g, "name"), select: required(g, "value") });

  const asserts: CompiledSchematron["asserts"] = new Map();
  const rules: CompiledSchematron["rules"] = new Map();

  const start = sheet.ele(XSL, "xsl:template", { match: "/" }).ele(SVRL, "svrl:schematron-output");
  const active = patterns.filter((p) =>
    children(p).some((r) => isSch(r, "rule") && attr(r, "abstract") !== "true"),
  );
  active.forEach((pattern, index) => {
    const patternId = attr(pattern, "id") ?? `pattern${index + 1}`;
    const mode = `p${index + 1}`;
    start.ele(SVRL, "svrl:active-pattern", { id: patternId });
    start.ele(XSL, "xsl:apply-templates", { select: "/", mode });
    // Nodes no rule of this pattern matches: walk on (elements and attributes; text is never a context).
    sheet
      .ele(XSL, "xsl:template", { match: "/|*|@*", mode, priority: "-10" })
      .ele(XSL, "xsl:apply-templates", { select: "@*|*", mode });

    const concrete = children(pattern).filter((r) => isSch(r, "rule") && attr(r, "abstract") !== "true");
    concrete.forEach((rule, ruleIndex) => {
      const context = required(rule, "context");
      const template = sheet.ele(XSL, "xsl:template", {
        match: context,
        mode,
        // The first rule of a pattern that matches a node is the one that fires.
        priority: String(concrete.length - ruleIndex),
      });
      template.ele(SVRL, "svrl:fired-rule", { pattern: patternId, context: escapeAvt(context) });
      const ids: string[] = [];
      emitChecks(template, rule, `${patternId}/${ruleIndex + 1}`, undefined);
      for (const ext of children(rule).filter((c) => isSch(c, "extends"))) {
        const name = required(ext, "rule");
        const target = abstractRules.get(name);
        if (!target) throw new Error(`Schematron: extends unknown rule ${name}`);
        emitChecks(template, target, name, name);
      }
      template.ele(XSL, "xsl:apply-templates", { select: "@*|*", mode });
      rules.set(`${patternId}|${context}`, ids);

      function emitChecks(
        into: XMLBuilder,
        source: DomNode,
        idBase: string,
        abstractRule: string | undefined,
      ) {
        let n = 0;
        for (const item of children(source)) {
          if (isSch(item, "let")) {
            into.ele(XSL, "xsl:variable", { name: required(item, "name"), select: required(item, "value") });
          } else if (isSch(item, "assert") || isSch(item, "report")) {
            n += 1;
            const id = attr(item, "id") ?? `${idBase}#${n}`;
            ids.push(id);
            asserts.set(id, { pattern: patternId, ...(abstractRule ? { abstractRule } : {}) });
            const isAssert = isSch(item, "assert");
            const test = required(item, "test");
            const out = into
              .ele(XSL, "xsl:if", { test: isAssert ? `not(${test})` : test })
              .ele(SVRL, isAssert ? "svrl:failed-assert" : "svrl:successful-report", { id: escapeAvt(id) });
            out.ele(XSL, "xsl:attribute", { name: "location", select: "path()" });
            emitMessage(out.ele(SVRL, "svrl:text"), item);
          }
        }
      }
    });
  });
  // Every assert of the schema's concrete rules is known now; count them per rule for the caller.
  return { xslt: doc.end({ prettyPrint: false }), asserts, rules };
}

function emitMessage(into: XMLBuilder, source: DomNode): void {
  for (const node of Array.from(source.childNodes)) {
    if (node.nodeType === 3) into.ele(XSL, "xsl:text").txt(node.textContent ?? "");
    else if (node.nodeType === 1 && isSch(node, "name"))
      into.ele(XSL, "xsl:value-of", { select: `name(${attr(node, "path") ?? "."})` });
    else if (node.nodeType === 1 && isSch(node, "value-of"))
      into.ele(XSL, "xsl:value-of", { select: required(node, "select") });
    else if (node.nodeType === 1) emitMessage(into, node);
  }
}

/** Literal result attributes are attribute value templates: braces in rule text must be doubled. */
function escapeAvt(value: string): string {
  return value.replace(/[{}]/g, (c) => c + c);
}
