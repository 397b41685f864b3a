/**
 * The judge for Nebim V3 Integrator requests. `Post` bodies are validated against the JSON Schema of their
 * `ModelType`, derived from the published samples and the PDF's field tables (./models.json, ./derive.ts);
 * the URL forms, `Connect`, `GetUserInfo` and `RunProc` against the docs (docs/01-2, 01-3, 03-call-proc.md).
 * A Post of a ModelType no sample shows is unknown to the judge (a conformance failure too).
 */

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import type { RecordedRequest, Verdict } from "../../testing/recorder";
import type { DerivedJudge } from "./derive";
import models from "./models.json" with { type: "json" };

export const NEBIM_MODELS = models as unknown as DerivedJudge;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
function validatorOf(modelType: string): ValidateFunction | undefined {
  const m = NEBIM_MODELS.models[modelType];
  if (!m) return undefined;
  let v = validators.get(modelType);
  if (!v) {
    v = ajv.compile(m.schema);
    validators.set(modelType, v);
  }
  return v;
}

const words = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) =>
    e.keyword === "additionalProperties"
      ? `${e.instancePath || "/"} has ${String((e.params as Obj).additionalProperty)}, which no sample or PDF table of this ModelType names`
      : `${e.instancePath || "/"} ${e.message ?? e.keyword}`,
  );

/** The commands of the service and whether they go out before a session exists. */
const COMMANDS = new Set(["Connect", "GetUserInfo", "Post", "RunProc", "RunQuery", "Disconnect"]);

/** `/(S(id))/IntegratorService/X` (session mode) or `/IntegratorService/X` (token mode, Token header). */
export function parseNebimPath(path: string): { session?: string; command: string } | undefined {
  const m = /^(?:.*?)(?:\/\(S\(([a-z0-9]+)\)\))?\/IntegratorService\/([A-Za-z]+)\/?$/i.exec(path);
  if (!m) return undefined;
  return { session: m[1], command: m[2] as string };
}

/** Problems of a `Post` body against its ModelType's schema and the PDF's line rule. */
export function postProblems(body: unknown): { modelType: string; problems: string[] } | undefined {
  if (!isObj(body)) return { modelType: "?", problems: ["Post body must be a JSON object"] };
  const modelType = String(body.ModelType ?? "");
  const validate = validatorOf(modelType);
  if (!validate) return undefined;
  const problems = validate(body) ? [] : words(validate.errors);
  // PDF (retail order / invoice): "If ItemCode, ColorCode, ItemDim1Code are sent in the lines array
  // UsedBarcode can not be sent. If UsedBarcode is sent, ItemCode, ColorCode, ItemDim1Code can not be sent."
  if (Array.isArray(body.Lines))
    body.Lines.forEach((l, i) => {
      if (!isObj(l)) return;
      const byBarcode = "UsedBarcode" in l;
      const byCode = "ItemCode" in l || "ColorCode" in l || "ItemDim1Code" in l;
      if (byBarcode && byCode)
        problems.push(`/Lines/${i} sends UsedBarcode together with ItemCode/ColorCode/ItemDim1Code`);
      else if (!byBarcode && !nonEmpty(l.ItemCode) && !nonEmpty(l.LotCode) && !nonEmpty(l.LotBarcode))
        problems.push(`/Lines/${i} names no item (UsedBarcode or ItemCode)`);
      else if (byBarcode && !nonEmpty(l.UsedBarcode)) problems.push(`/Lines/${i}/UsedBarcode is empty`);
    });
  // The PDF's mandatory fields may not be empty strings either.
  const table = NEBIM_MODELS.models[modelType]?.schema.required ?? [];
  for (const f of table) if (body[f] === "") problems.push(`/${f} is mandatory and empty`);
  return { modelType, problems };
}

/** Problems of a `RunProc` body (docs/03-call-proc.md and the PDF's Procedure Call table). */
export function runProcProblems(body: unknown): string[] {
  if (!isObj(body)) return ["RunProc body must be a JSON object"];
  const p: string[] = [];
  if (!nonEmpty(body.ProcName)) p.push("ProcName must name a stored procedure");
  else if ((body.ProcName as string).length > 100) p.push("ProcName is longer than 100 characters");
  if (body.ModelType !== undefined && Number(body.ModelType) !== 33) p.push("ModelType of RunProc is 33");
  if (body.Parameters !== undefined) {
    if (!Array.isArray(body.Parameters)) p.push("Parameters must be an array");
    else
      for (const [i, prm] of body.Parameters.entries()) {
        if (!isObj(prm) || !nonEmpty(prm.Name)) p.push(`Parameters[${i}].Name must be a non-empty string`);
        // "Tüm parametre değerleri string olarak gönderilir."
        else if (typeof prm.Value !== "string") p.push(`Parameters[${i}].Value must be a string`);
        if (isObj(prm)) {
          const extra = Object.keys(prm).filter((k) => k !== "Name" && k !== "Value");
          if (extra.length) p.push(`Parameters[${i}] has ${extra.join(", ")}`);
        }
      }
  }
  const extra = Object.keys(body).filter((k) => !["ModelType", "ProcName", "Parameters"].includes(k));
  if (extra.length) p.push(`RunProc body has ${extra.join(", ")}`);
  return p;
}

/** Problems of a `Connect` body (PDF Connect table; the docs show it without ModelType). */
export function connectProblems(body: unknown): string[] {
  if (body === undefined || body === null || body === "") return []; // Web.config holds the user (docs/01-1)
  if (!isObj(body)) return ["Connect body must be a JSON object"];
  const p: string[] = [];
  const limits: Array<[string, number]> = [
    ["DatabaseName", 128],
    ["UserGroupCode", 5],
    ["UserName", 15],
    ["Password", 100],
  ];
  for (const [k, max] of limits) {
    const v = body[k];
    if (typeof v !== "string" || v === "") p.push(`${k} is mandatory`);
    else if (v.length > max) p.push(`${k} is longer than ${max} characters`);
  }
  if (body.ModelType !== undefined && Number(body.ModelType) !== 1) p.push("ModelType of Connect is 1");
  const extra = Object.keys(body).filter((k) => k !== "ModelType" && !limits.some(([n]) => n === k));
  if (extra.length) p.push(`Connect body has ${extra.join(", ")}`);
  return p;
}

const header = (r: RecordedRequest, name: string) => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

export function judgeNebimRequest(r: RecordedRequest): Verdict | undefined {
  const parsed = parseNebimPath(r.path);
  if (!parsed || !COMMANDS.has(parsed.command)) return undefined;
  const { command, session } = parsed;
  const problems: string[] = [];
  const token = header(r, "Token");
  if (command === "Connect") {
    // docs/01-2 shows Connect on a session URL (IIS puts the session into the URL of a cookieless session
    // before the call arrives); /IntegratorService/Connect without one is the token form (docs/01-3).
    if (r.method !== "POST" && r.method !== "GET") problems.push("Connect is GET (session) or POST (token)");
    problems.push(...connectProblems(r.body));
    return { operation: "Connect", problems };
  }
  if (!session && !nonEmpty(token))
    problems.push(`${command} needs the session in the URL (/(S(id))/…) or the Token header`);
  if (session && token !== undefined) problems.push(`${command} sends both a session URL and a Token header`);
  if (command === "GetUserInfo" || command === "Disconnect") {
    if (r.body !== undefined && r.body !== null && !(isObj(r.body) && Object.keys(r.body).length === 0))
      problems.push(`${command} has no body`);
    return { operation: command, problems };
  }
  if (r.method !== "POST") problems.push(`${command} is sent with POST`);
  if (command === "RunProc") {
    const name = isObj(r.body) && typeof r.body.ProcName === "string" ? r.body.ProcName : "?";
    return { operation: `RunProc:${name}`, problems: [...problems, ...runProcProblems(r.body)] };
  }
  if (command === "RunQuery") return undefined; // not used by the connector
  const post = postProblems(r.body);
  if (!post) return undefined;
  return { operation: `Post:${post.modelType}`, problems: [...problems, ...post.problems] };
}
