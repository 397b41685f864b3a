import { SQL_MAPPING_FIELDS, SQL_QUERY_NAMES, type SqlQueryName } from "@ep/contracts";

/**
 * The "SQL ile bağlantı" form's state and the configuration JSON the generic SQL connector stores in
 * its `sqlConfig` field. Reading tolerates an empty or hand-edited value; writing keeps only what is set.
 */
export type QueryForm = { sql: string; keyColumn: string; columns: Record<string, string> };

export type SqlMappingForm = {
  queries: Record<SqlQueryName, QueryForm>;
  orderLookup: { sql: string; columns: Record<string, string> };
  orderWrite: string;
};

/** Systems whose connection works through this form ("mapping" availability). */
export const MAPPING_AVAILABILITY = "mapping";

type Spec = (typeof SQL_MAPPING_FIELDS)[keyof typeof SQL_MAPPING_FIELDS];
/** Every model field a query column can map to. */
export type MappingField = Spec["required"][number] | Spec["optional"][number];

export function fieldsOf(name: SqlQueryName | "orderLookup"): { field: MappingField; required: boolean }[] {
  const spec = SQL_MAPPING_FIELDS[name];
  return [
    ...spec.required.map((field) => ({ field, required: true })),
    ...spec.optional.map((field) => ({ field, required: false })),
  ];
}

const emptyQuery = (): QueryForm => ({ sql: "", keyColumn: "", columns: {} });

function strings(v: unknown): Record<string, string> {
  if (!v || typeof v !== "object") return {};
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === "string",
    ),
  );
}

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function parseSqlMapping(json: string | undefined): SqlMappingForm {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (parsed && typeof parsed === "object") raw = parsed as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const queries = Object.fromEntries(
    SQL_QUERY_NAMES.map((name) => {
      const q = (raw[name] ?? {}) as Record<string, unknown>;
      return [name, { sql: text(q.sql), keyColumn: text(q.keyColumn), columns: strings(q.columns) }];
    }),
  ) as Record<SqlQueryName, QueryForm>;
  const lookup = (raw.orderLookup ?? {}) as Record<string, unknown>;
  const write = (raw.orderWrite ?? {}) as Record<string, unknown>;
  return {
    queries,
    orderLookup: { sql: text(lookup.sql), columns: strings(lookup.columns) },
    orderWrite: text(write.sql),
  };
}

function setColumns(columns: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(columns)
      .map(([k, v]) => [k, v.trim()] as const)
      .filter(([, v]) => v !== ""),
  );
}

export function serializeSqlMapping(form: SqlMappingForm): string {
  const out: Record<string, unknown> = {};
  for (const name of SQL_QUERY_NAMES) {
    const q = form.queries[name];
    if (!q.sql.trim()) continue;
    out[name] = {
      sql: q.sql.trim(),
      columns: setColumns(q.columns),
      ...(q.keyColumn.trim() ? { keyColumn: q.keyColumn.trim() } : {}),
    };
  }
  if (form.orderLookup.sql.trim())
    out.orderLookup = { sql: form.orderLookup.sql.trim(), columns: setColumns(form.orderLookup.columns) };
  if (form.orderWrite.trim()) out.orderWrite = { sql: form.orderWrite.trim() };
  return Object.keys(out).length ? JSON.stringify(out) : "";
}

/** Required mapping fields left empty for the queries that are written (the form marks them). */
export function missingRequired(form: SqlMappingForm): Array<{ query: SqlQueryName; field: string }> {
  const out: Array<{ query: SqlQueryName; field: string }> = [];
  for (const name of SQL_QUERY_NAMES) {
    const q = form.queries[name];
    if (!q.sql.trim()) continue;
    for (const { field, required } of fieldsOf(name))
      if (required && !q.columns[field]?.trim()) out.push({ query: name, field });
  }
  return out;
}

export function withQuery(
  form: SqlMappingForm,
  name: SqlQueryName,
  patch: Partial<QueryForm>,
): SqlMappingForm {
  return { ...form, queries: { ...form.queries, [name]: { ...form.queries[name], ...patch } } };
}

export { emptyQuery };
