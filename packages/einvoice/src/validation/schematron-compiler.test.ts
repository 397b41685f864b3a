import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SchematronValidator } from "./validate.ts";

/** ISO Schematron semantics the compiler must keep, on a small schema of our own. */
const schema = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:sch="http://purl.oclc.org/dsdl/schematron">
  <sch:ns prefix="t" uri="urn:test"/>
  <let name="limit" value="3"/>
  <pattern id="codes"><sch:let name="Allowed" value="',A,B,'"/></pattern>
  <pattern id="abstracts">
    <rule abstract="true" id="CodeCheck">
      <assert test="contains($Allowed, concat(',', ., ','))">Kod geçersiz: <value-of select="."/> (<name/>)</assert>
    </rule>
  </pattern>
  <pattern id="main">
    <rule context="t:item[@special]">
      <let name="n" value="string-length(.)"/>
      <assert id="special-short" test="$n &lt;= $limit">özel kısa olmalı</assert>
    </rule>
    <rule context="t:item">
      <extends rule="CodeCheck"/>
      <report id="is-b" test=". = 'B'">B bulundu</report>
    </rule>
  </pattern>
</schema>`;

describe("schematron compiler", () => {
  it("abstract rules, lets, reports, and only the first matching rule of a pattern fires", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ep-sch-test-"));
    writeFileSync(join(dir, "s.sch"), schema);
    const validator = new SchematronValidator(join(dir, "s.sch"));
    const [ok, bad] = await validator.validate([
      `<r xmlns="urn:test"><item>A</item><item special="1">XYZ</item></r>`,
      `<r xmlns="urn:test"><item>C</item><item>B</item><item special="1">LONGER</item></r>`,
    ]);
    // "XYZ" is special: the first rule fires, so CodeCheck (second rule) is not applied to it.
    expect(ok?.failed).toEqual([]);
    expect(bad?.failed.map((f) => [f.id, f.text])).toEqual([
      ["CodeCheck#1", "Kod geçersiz: C (item)"],
      ["is-b", "B bulundu"],
      ["special-short", "özel kısa olmalı"],
    ]);
    expect(bad?.failed[0]?.location).toBe("/Q{urn:test}r[1]/Q{urn:test}item[1]");
    expect([...(ok?.evaluated ?? [])].sort()).toEqual(["CodeCheck#1", "is-b", "special-short"]);
  });
});
