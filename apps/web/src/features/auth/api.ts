import type { Account, LoginResult, RegisterRequest, SystemAvailability } from "@ep/contracts";
import { api, request } from "@/lib/api-client";
import { setAccount, startSession } from "./session-store";

export type CaptchaMode = "off" | "adaptive" | "required";
export type PublicConfig = {
  captcha: CaptchaMode;
  demo: { email: string; password: string } | null;
  /** How each system of the registration lists can be connected today, by type number. */
  systems: { erp: Record<string, SystemAvailability>; ecommerce: Record<string, SystemAvailability> };
};

export const CAPTCHA_CHALLENGE_URL = "/api/account/captcha-challenge";
/** The spec waits one second before the sign-in call (section 7). */
export const LOGIN_DELAY_MS = 1000;

export const authKeys = {
  config: ["config"] as const,
  account: ["account"] as const,
};

export const fetchConfig = (signal?: AbortSignal) => api.get<PublicConfig>("/api/config", { signal });

export const fetchAccount = async (signal?: AbortSignal) => {
  const account = await api.get<Account>("/api/Account", { signal });
  setAccount(account);
  return account;
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type LoginInput = { email: string; password: string; captcha?: string };

/**
 * Signs in: wait 1 s, call, keep the token. The signed-in shell then fetches and persists the
 * account (GET /api/Account) as its first call.
 */
export async function signIn(input: LoginInput, delayMs = LOGIN_DELAY_MS): Promise<LoginResult> {
  if (delayMs > 0) await wait(delayMs);
  const result = await api.post<LoginResult>("/api/account/login", {
    email: input.email,
    password: input.password,
    ...(input.captcha ? { captcha: input.captcha } : {}),
  });
  startSession(result);
  return result;
}

export const register = (body: RegisterRequest) => api.post<Account>("/api/account/register", body);

/** Revokes the session on the server; signing out locally happens whatever the answer. */
export const logoutOnServer = () => request<null>("/api/account/logout", { method: "POST" });

export const recoverPassword = (email: string) =>
  request<null>("/api/account/recover-password", { method: "POST", query: { email } });

export const checkRowId = (rowid: string) =>
  request<null>("/api/account/check-row-id", { method: "POST", query: { rowid } });

export const resetPassword = (body: { rowid: string; newPassword: string; confirmPassword: string }) =>
  request<null>("/api/account/reset-password", { method: "POST", body });
