/**
 * The entity fixture (entities.generated.json, derived by derive-entities.ts from Microsoft's entity
 * reference pages) as lookups for the judge and the emulator.
 */

import fixture from "./entities.generated.json" with { type: "json" };

export interface EntityInfo {
  set: string;
  entity: string;
  page: string;
  setSource: string;
  companySpecific: boolean;
  fields: ReadonlySet<string>;
}

export const D365_DOCS_SOURCE = `${fixture.source}@${fixture.commit}`;

/**
 * `dataAreaId` is the company key of every company-specific entity (shared ones have none): a system field the reference pages do
 * not list, named by Microsoft's OData pages (cross-company queries) and part of every entity key.
 */
export const SYSTEM_FIELDS = new Set(["dataAreaId"]);

export const D365_ENTITIES: ReadonlyMap<string, EntityInfo> = new Map(
  fixture.entities.map((e) => [
    e.set,
    {
      set: e.set,
      entity: e.entity,
      page: e.page,
      setSource: e.setSource,
      companySpecific: e.companySpecific,
      fields: new Set(Object.keys(e.fields)),
    },
  ]),
);

export function isField(set: string, name: string): boolean {
  const e = D365_ENTITIES.get(set);
  if (!e) return false;
  return (SYSTEM_FIELDS.has(name) && e.companySpecific) || e.fields.has(name);
}
