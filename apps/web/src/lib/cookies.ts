/** Minimal cookie helpers for the token cookie (first-party, path /). */
export function getCookie(name: string): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function setCookie(name: string, value: string, expires?: Date): void {
  const attrs = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (expires) attrs.push(`Expires=${expires.toUTCString()}`);
  if (location.protocol === "https:") attrs.push("Secure");
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the token in a cookie; Cookie Store API is not everywhere yet.
  document.cookie = attrs.join("; ");
}

export function removeCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see setCookie.
  document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}
