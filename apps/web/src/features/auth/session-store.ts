import type { Account, CompanyUser, LoginResult } from "@ep/contracts";
import { useSyncExternalStore } from "react";
import { getCookie, removeCookie, setCookie } from "@/lib/cookies";

/**
 * The signed-in state. The token lives in a cookie (spec section 4); the user, the account and
 * the token's expiration are the persisted local state. A token whose expiration is earlier than
 * now counts as none: the cookie is removed and the user is signed out.
 */
export const TOKEN_COOKIE = "authKey";
export const PERSIST_KEY = "ep.persist";
/** Why the last session ended, for the sign-in screen to say so (read once). */
const ENDED_KEY = "ep.sessionEnded";

export type Session = {
  token: string | null;
  expiration: string | null;
  user: CompanyUser | null;
  account: Account | null;
};

type Persisted = Pick<Session, "expiration" | "user" | "account">;

const EMPTY: Session = { token: null, expiration: null, user: null, account: null };

function readPersisted(): Persisted {
  try {
    const raw = localStorage.getItem(PERSIST_KEY);
    if (!raw) return { expiration: null, user: null, account: null };
    const parsed = JSON.parse(raw) as Partial<Persisted>;
    return {
      expiration: parsed.expiration ?? null,
      user: parsed.user ?? null,
      account: parsed.account ?? null,
    };
  } catch {
    return { expiration: null, user: null, account: null };
  }
}

function writePersisted(value: Persisted): void {
  try {
    localStorage.setItem(PERSIST_KEY, JSON.stringify(value));
  } catch {
    // storage full or blocked: the session still works for this page
  }
}

/** The `exp` claim of a JWT, in ms; null when the token is not a readable JWT. */
export function tokenExpiry(token: string): number | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** When the session ends, in ms: the stored expiration, or the token's own claim, whichever is earlier. */
export function sessionExpiresAt(session: Pick<Session, "token" | "expiration">): number | null {
  if (!session.token) return null;
  const stored = session.expiration ? Date.parse(session.expiration) : Number.NaN;
  const claim = tokenExpiry(session.token);
  const candidates = [stored, claim ?? Number.NaN].filter((v) => Number.isFinite(v));
  return candidates.length ? Math.min(...candidates) : null;
}

export function isSessionValid(session: Pick<Session, "token" | "expiration">, now = Date.now()): boolean {
  if (!session.token) return false;
  const expiresAt = sessionExpiresAt(session);
  return expiresAt === null || expiresAt > now;
}

let state: Session = EMPTY;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function emit(next: Session): void {
  state = next;
  scheduleExpiry();
  for (const listener of listeners) listener();
}

function scheduleExpiry(): void {
  clearTimeout(expiryTimer);
  const at = sessionExpiresAt(state);
  if (at === null) return;
  // setTimeout holds at most ~24.8 days; a later expiry is checked again then.
  const delay = Math.min(Math.max(at - Date.now(), 0), 2_147_000_000);
  expiryTimer = setTimeout(() => {
    if (!isSessionValid(state)) clearSession("expired");
    else scheduleExpiry();
  }, delay);
}

/** Reads cookie and storage; an expired token is removed here, before anything renders. */
export function loadSession(): Session {
  const token = getCookie(TOKEN_COOKIE);
  const persisted = readPersisted();
  const candidate: Session = { token, ...persisted };
  if (token && !isSessionValid(candidate)) {
    clearSession("expired");
    return state;
  }
  emit(token ? candidate : { ...EMPTY });
  return state;
}

export function startSession(result: LoginResult): void {
  const expires = new Date(result.expiration);
  setCookie(TOKEN_COOKIE, result.token, Number.isNaN(expires.getTime()) ? undefined : expires);
  const next: Session = {
    token: result.token,
    expiration: result.expiration,
    user: result.user,
    account: null,
  };
  writePersisted({ expiration: next.expiration, user: next.user, account: null });
  emit(next);
}

export function setAccount(account: Account): void {
  if (!state.token) return;
  const next: Session = {
    ...state,
    account,
    user: state.user ? { ...state.user, ...account.companyUser } : account.companyUser,
  };
  writePersisted({ expiration: next.expiration, user: next.user, account });
  emit(next);
}

/**
 * Removes the token cookie and the persisted state (logout, 401, expiry). `silent` leaves the
 * screen as it is, for callers that reload the page right after.
 */
export function clearSession(reason?: "expired", { silent = false }: { silent?: boolean } = {}): void {
  removeCookie(TOKEN_COOKIE);
  try {
    localStorage.removeItem(PERSIST_KEY);
    if (reason) sessionStorage.setItem(ENDED_KEY, reason);
  } catch {
    // storage blocked: nothing to remove
  }
  if (silent) {
    state = { ...EMPTY };
    clearTimeout(expiryTimer);
    return;
  }
  emit({ ...EMPTY });
}

/**
 * Why the sign-in screen is shown, for its note: the session expired or was ended (a 401, e.g.
 * after a password reset elsewhere), the reset link was unusable, or the password was just reset.
 */
export type SignInNote = "expired" | "resetLinkInvalid" | "passwordChanged";
const NOTES: readonly string[] = ["expired", "resetLinkInvalid", "passwordChanged"];

/** Leaves a note for the sign-in screen this tab goes to next. */
export function noteForSignIn(note: SignInNote): void {
  try {
    sessionStorage.setItem(ENDED_KEY, note);
  } catch {
    // storage blocked: the sign-in screen shows no note
  }
}

/** The note left for the sign-in screen, if any (read once; `forgetSessionEnd` clears it). */
export function peekSignInNote(): SignInNote | null {
  try {
    const note = sessionStorage.getItem(ENDED_KEY);
    return note && NOTES.includes(note) ? (note as SignInNote) : null;
  } catch {
    return null;
  }
}

export function forgetSessionEnd(): void {
  try {
    sessionStorage.removeItem(ENDED_KEY);
  } catch {
    // nothing to forget
  }
}

export function getSession(): Session {
  return state;
}

export function getToken(): string | null {
  if (state.token && !isSessionValid(state)) {
    clearSession("expired");
    return null;
  }
  return state.token;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

export function useIsSignedIn(): boolean {
  return useSession().token !== null;
}
