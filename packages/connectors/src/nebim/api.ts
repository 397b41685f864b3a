/**
 * The one request helper of the Nebim V3 connector: Connect (session mode: the SessionID goes into the
 * URL as `/(S(id))/IntegratorService/…`; token mode: the Token goes into a `Token` header), the check
 * with `GetUserInfo` (Connect answers "Connection Created Successfully" even for a wrong password), the
 * error shape `{ ModelType: 0, ExceptionMessage, StackTrace }` (docs/99-errors.md), reconnecting when
 * the session is gone ("Attempting to deserialize an empty stream."), `RunProc` and `Post`.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { nebimDescriptor } from "./descriptor";

export type NebimRow = Record<string, unknown>;
export type ConnectMode = "session" | "token";

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v)).trim();
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};
export const isObj = (v: unknown): v is NebimRow => typeof v === "object" && v !== null && !Array.isArray(v);

/** docs/99-errors.md: the service lost the session (it idles out); connecting again cures it. */
const SESSION_LOST = /empty stream|Boş akışın serisini kaldırma/i;
/** docs/99-errors.md: the model is larger than the service's deserializer allows (a Web.config setting). */
const TOO_LARGE = /too large to be deserialized|MaxJsonDeserializerMembers/i;
/** SQL Server words for a transient state of the V3 database (inferred: the service passes them through). */
const TRANSIENT_SQL = /deadlock|kilitlen|Timeout expired|zaman aşımı/i;

const TOO_LARGE_TEXT =
  'Nebim Integrator gönderilen modeli çok büyük buldu. Integrator\'ün Web.config dosyasına <add key="aspnet:MaxJsonDeserializerMembers" value="150000" /> satırını ekleyin.';

/** Classify an Integrator answer by its body: an `ExceptionMessage` is a failure whatever the HTTP status. */
export function classifyNebimResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = res.json;
  if (!isObj(body)) return undefined; // HTTP status and "bad answer" handling do the rest
  const msg = str(body.ExceptionMessage);
  if (msg) {
    let reason: FailureReason = "validation";
    let merchantMessage: string | undefined;
    if (SESSION_LOST.test(msg)) reason = "auth";
    else if (TOO_LARGE.test(msg)) {
      reason = "config";
      merchantMessage = TOO_LARGE_TEXT;
    } else if (TRANSIENT_SQL.test(msg)) reason = /deadlock|kilitlen/i.test(msg) ? "lock" : "timeout";
    return new ConnectorError(`nebim ${operation}: ${msg}`, {
      reason,
      httpStatus: res.status,
      systemCode: SESSION_LOST.test(msg) ? "SESSION_LOST" : undefined,
      systemMessage: msg,
      merchantMessage,
      system: "nebim",
      operation,
    });
  }
  // Connect answers carry a StatusCode (200 when created); anything else is a refusal (inferred).
  if (body.StatusCode !== undefined && num(body.StatusCode) !== 200) {
    const code = num(body.StatusCode);
    return new ConnectorError(`nebim ${operation}: ${code} ${str(body.Status)}`, {
      reason: code === 401 || code === 403 ? "auth" : code >= 500 ? "server_error" : "validation",
      httpStatus: res.status,
      systemCode: String(code),
      systemMessage: str(body.Status),
      system: "nebim",
      operation,
    });
  }
  return undefined;
}

export function badResponse(operation: string, text: string): ConnectorError {
  return new ConnectorError(`nebim ${operation}: unexpected answer`, {
    reason: "bad_response",
    system: "nebim",
    operation,
    systemMessage: text.slice(0, 300),
  });
}

interface Login {
  mode: ConnectMode;
  /** SessionID (session mode) or Token (token mode). */
  id: string;
  user: NebimRow;
}

export class NebimApi {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  readonly mode: ConnectMode;
  private login?: Promise<Login>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("nebim", nebimDescriptor.credentials, credentials);
    const mode = (this.cfg.connectMode ?? "session").trim().toLowerCase();
    if (mode !== "session" && mode !== "token")
      throw new ConnectorError("nebim: connectMode must be session or token", {
        reason: "config",
        system: "nebim",
        merchantMessage: "Nebim bağlantı modu 'session' ya da 'token' olmalı.",
      });
    this.mode = mode;
    const type = (this.cfg.orderType ?? "R").trim().toUpperCase();
    if (type !== "R" && type !== "WS")
      throw new ConnectorError("nebim: orderType must be R or WS", {
        reason: "config",
        system: "nebim",
        merchantMessage: "Nebim sipariş tipi 'R' (perakende) ya da 'WS' (toptan) olmalı.",
      });
    this.http = createConnectorHttp(nebimDescriptor, ctx, {
      baseUrl: this.cfg.serviceUrl?.replace(/\/+$/, ""),
      secrets: [this.cfg.password ?? ""],
    });
  }

  get orderType(): "R" | "WS" {
    return (this.cfg.orderType ?? "R").trim().toUpperCase() === "WS" ? "WS" : "R";
  }

  /** The Connect body; none when the user lives in the service's Web.config (docs/01-1-connect.md). */
  private connectBody(): Record<string, string> | undefined {
    const { databaseName, userGroupCode, userName, password } = this.cfg;
    if (!databaseName && !userGroupCode && !userName && !password) return undefined;
    return {
      DatabaseName: databaseName ?? "",
      UserGroupCode: userGroupCode ?? "",
      UserName: userName ?? "",
      Password: password ?? "",
    };
  }

  private url(command: string, id: string): string {
    return this.mode === "session"
      ? `(S(${id}))/IntegratorService/${command}`
      : `IntegratorService/${command}`;
  }

  /**
   * Connect, then GetUserInfo with the new session or token. Token mode POSTs the credentials to
   * `IntegratorService/Connect` (docs/01-3). Session mode signs in on the session's own URL
   * (judge/rules.ts, nebim.session-credentials-url): IIS may answer a bare URL with a 302 to
   * `/(S(id))/…`, which a client follows as a GET without the body, so a bodyless GET Connect (the
   * docs' session-mode method) opens the session first and the credentials are POSTed to
   * `(S(id))/IntegratorService/Connect`, where no redirect can drop them.
   */
  private async connect(): Promise<Login> {
    const body = this.connectBody();
    const session = this.mode === "session";
    let res = await this.http.request({
      method: session ? "GET" : "POST",
      url: "IntegratorService/Connect",
      operation: "Connect",
      kind: "read",
      body: body && !session ? { json: body } : undefined,
      classify: (r) => classifyNebimResponse(r, "Connect"),
    });
    const opened = isObj(res.json) ? str(res.json.SessionID) : "";
    if (session && body && opened) {
      this.http.addSecret(opened);
      res = await this.http.request({
        method: "POST",
        url: this.url("Connect", opened),
        operation: "Connect",
        kind: "read",
        body: { json: body },
        classify: (r) => classifyNebimResponse(r, "Connect"),
      });
    }
    const answer = isObj(res.json) ? res.json : {};
    const id = str(this.mode === "session" ? answer.SessionID : answer.Token);
    if (!id) {
      const other = str(this.mode === "session" ? answer.Token : answer.SessionID);
      if (other) {
        const text =
          this.mode === "session"
            ? "Nebim Integrator oturum yerine token verdi: IIS'te oturum durumu kapalı. Bağlantı modunu 'token' yapın."
            : "Nebim Integrator token yerine oturum verdi: IIS'te oturum durumu 'İşlem İçi (InProc)'. Bağlantı modunu 'session' yapın.";
        throw new ConnectorError("nebim Connect: connect mode does not match the service", {
          reason: "config",
          system: "nebim",
          operation: "Connect",
          systemMessage: str(answer.Status),
          merchantMessage: text,
        });
      }
      throw badResponse("Connect", res.text);
    }
    this.http.addSecret(id);
    const info = await this.http.request({
      method: this.mode === "session" ? "GET" : "POST",
      url: this.url("GetUserInfo", id),
      operation: "GetUserInfo",
      kind: "read",
      headers: this.mode === "token" ? () => ({ Token: id }) : undefined,
      classify: (r) => classifyNebimResponse(r, "GetUserInfo"),
    });
    const user = isObj(info.json) ? info.json : {};
    // Connect "succeeds" for any password: a session without a user is the refusal (docs/01-2, 01-3).
    const expected = this.cfg.userName;
    if (
      !str(user.UserName) ||
      (expected && str(user.UserName).toUpperCase() !== expected.trim().toUpperCase())
    ) {
      throw new ConnectorError("nebim GetUserInfo: the session has no user (wrong credentials)", {
        reason: "auth",
        system: "nebim",
        operation: "GetUserInfo",
        systemMessage: info.text.slice(0, 300),
        merchantMessage:
          "Nebim kullanıcısı doğrulanamadı: veritabanı, kullanıcı grubu, kullanıcı adı ya da şifre hatalı.",
      });
    }
    return { mode: this.mode, id, user };
  }

  session(): Promise<Login> {
    this.login ??= this.connect();
    this.login.catch(() => {
      this.login = undefined;
    });
    return this.login;
  }

  /** The user the service says we are (GetUserInfo of the current session). */
  async userInfo(): Promise<NebimRow> {
    return (await this.session()).user;
  }

  /**
   * One call of a command with the current session. A lost session (the docs' "empty stream" error, or an
   * HTTP 401/419 the client classifies as auth) connects again once and sends the call again: the URL and
   * the Token header are read per attempt, so the resent call carries the new session.
   */
  async call(
    command: "Post" | "RunProc",
    operation: string,
    kind: CallKind,
    body: unknown,
    opts: { idempotent?: boolean } = {},
  ): Promise<unknown> {
    let login = await this.session();
    const api = this;
    const res = await this.http.request({
      method: "POST",
      get url() {
        return api.url(command, login.id);
      },
      operation,
      kind,
      idempotent: opts.idempotent,
      body: { json: body },
      headers: this.mode === "token" ? () => ({ Token: login.id }) : undefined,
      classify: (r) => classifyNebimResponse(r, operation),
      onAuthFailure: async () => {
        this.login = undefined;
        login = await this.session();
        return true;
      },
    });
    if (res.json === undefined) throw badResponse(operation, res.text);
    return res.json;
  }

  /**
   * `RunProc` (docs/03-call-proc.md): every parameter value a string, names as in the procedure. The answer
   * is the procedure's result set as a JSON array of rows (inferred: the docs show no answer).
   */
  async runProc(procName: string, params: Record<string, string>, operation = procName): Promise<NebimRow[]> {
    const answer = await this.call("RunProc", `RunProc:${operation}`, "read", {
      ModelType: 33,
      ProcName: procName,
      Parameters: Object.entries(params).map(([Name, Value]) => ({ Name, Value })),
    });
    if (Array.isArray(answer)) return answer.filter(isObj);
    if (isObj(answer)) {
      const list = Object.values(answer).find(Array.isArray);
      if (list) return (list as unknown[]).filter(isObj);
    }
    throw badResponse(`RunProc:${operation}`, JSON.stringify(answer).slice(0, 300));
  }

  /** `Post` of a ModelType model; answers the saved model as the service echoes it (inferred). */
  async post(model: NebimRow & { ModelType: number }): Promise<NebimRow> {
    const answer = await this.call("Post", `Post:${model.ModelType}`, "write", model);
    if (!isObj(answer)) throw badResponse(`Post:${model.ModelType}`, JSON.stringify(answer).slice(0, 300));
    return answer;
  }
}
