import { logoutOnServer } from "./api";
import { clearSession, getSession } from "./session-store";

/**
 * Signing out (spec sections 2 and 4): revoke the session on the server when there is one,
 * remove the cookie and the persisted user state, reload onto the sign-in screen.
 */
export async function signOut(): Promise<void> {
  if (getSession().token) await logoutOnServer().catch(() => undefined);
  clearSession(undefined, { silent: true });
  window.location.replace("/account/login");
}
