/**
 * The judge for Luca Koza: the request shapes of `gamzeaydinnn/katana` `docs/Luca-Koza-API.md` @ 3ef520e
 * (written against the vendor's "Postman Luca Koza" collection): every call is `POST <API_URL>/<Method>.do`
 * with a JSON body; login `Giris.do` `{orgCode, userName, userPassword}`; company/branch list
 * `YdlUserResponsibilityOrgSs.do` (empty body) and selection `GuncelleYtkSirketSubeDegistir.do`
 * `{orgSirketSubeId: Long}`; list methods with the `No-Paging: true` header; the session cookie on every call
 * after login. A method the document does not name is unknown and fails the suite.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const header = (r: RecordedRequest, name: string): string | undefined => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Methods of the document the connector uses: body rule and allowed query parameters. */
const METHODS: Record<string, { list: boolean; body: (b: Obj) => string[]; query?: (q: Obj) => string[] }> = {
  "Giris.do": {
    list: false,
    body: (b) =>
      ["orgCode", "userName", "userPassword"].flatMap((k) =>
        typeof b[k] === "string" && b[k] !== "" ? [] : [`${k} must be a non-empty string`],
      ),
  },
  "YdlUserResponsibilityOrgSs.do": {
    list: false,
    body: (b) => (Object.keys(b).length === 0 ? [] : ["body must be empty ({})"]),
  },
  "GuncelleYtkSirketSubeDegistir.do": {
    list: false,
    body: (b) =>
      Number.isInteger(b.orgSirketSubeId) && Object.keys(b).length === 1
        ? []
        : ["body must be {orgSirketSubeId: Long}"],
  },
  "ListeleStkSkart.do": {
    list: true,
    body: (b) => (Object.keys(b).length === 0 || isObj(b.stkSkart) ? [] : ["filter must sit in stkSkart"]),
  },
  "ListeleStkDepo.do": {
    list: true,
    body: (b) => (Object.keys(b).length === 0 || isObj(b.stkDepo) ? [] : ["filter must sit in stkDepo"]),
  },
  "ListeleStkSkartKategoriAgac.do": {
    list: true,
    body: (b) => (b.kartTuru === 1 || b.kartTuru === 2 ? [] : ["kartTuru must be 1 (stok) or 2 (hizmet)"]),
  },
  "ListeleStkSsEldekiMiktar.do": {
    list: true,
    body: () => [],
    query: (q) => {
      const p: string[] = [];
      if (q.cagirilanKart !== "depo") p.push("cagirilanKart=depo required");
      if (!/^\d+$/.test(String(q["stkDepo.depoId"] ?? ""))) p.push("stkDepo.depoId must be a depot id");
      for (const k of Object.keys(q))
        if (k !== "cagirilanKart" && k !== "stkDepo.depoId") p.push(`unknown query parameter ${k}`);
      return p;
    },
  },
  "ListeleStkSkartFiyatListeleri.do": {
    list: true,
    body: (b) => {
      const p: string[] = [];
      if (!isObj(b.stkSkart) || !Number.isInteger(b.stkSkart.skartId))
        p.push("stkSkart.skartId (Long) required");
      if (b.tip !== "satis" && b.tip !== "alis") p.push("tip must be 'satis' or 'alis'");
      return p;
    },
  },
};

export const judgeLucaKozaRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const method = /\/([A-Za-z]+\.do)$/.exec(r.path)?.[1];
  const rule = method ? METHODS[method] : undefined;
  if (!method || !rule || r.method !== "POST") return undefined;
  const p: string[] = [];
  if (!/^application\/json/i.test(header(r, "content-type") ?? "")) p.push("body must be JSON");
  const body = r.body;
  if (!isObj(body)) p.push("body must be a JSON object");
  else p.push(...rule.body(body));
  if (rule.query) p.push(...rule.query(r.query));
  else if (Object.keys(r.query).length > 0) p.push(`${method} takes no query parameters`);
  if (rule.list && header(r, "no-paging") !== "true") p.push("list methods are sent with No-Paging: true");
  if (method !== "Giris.do" && !/JSESSIONID=\S+/.test(header(r, "cookie") ?? ""))
    p.push("session cookie (JSESSIONID) missing");
  return { operation: method, problems: p };
};
