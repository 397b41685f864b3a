import { PARTNER_PRODUCTS } from "@ep/contracts";

/**
 * A partner link opened signed out: where to go back once signed in (or registered). Kept in this
 * tab's session storage and read once; only our own partner screens are accepted, so nothing else can
 * plant an address to be sent to.
 */
const KEY = "ep.partnerReturn";

const PARTNER_PATHS = new Set([...PARTNER_PRODUCTS.map((p) => `/${p}-auth`), "/ideasoft-app-install"]);

function isPartnerPath(target: string): boolean {
  try {
    const url = new URL(target, "http://panel.invalid");
    return url.origin === "http://panel.invalid" && PARTNER_PATHS.has(url.pathname);
  } catch {
    return false;
  }
}

export function rememberPartnerReturn(target: string): void {
  if (!isPartnerPath(target)) return;
  try {
    sessionStorage.setItem(KEY, target);
  } catch {
    // storage blocked: the merchant opens the link again after signing in
  }
}

/** The partner link to go back to after signing in (once), else undefined. */
export function takePartnerReturn(): string | undefined {
  try {
    const target = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return target && isPartnerPath(target) ? target : undefined;
  } catch {
    return undefined;
  }
}
