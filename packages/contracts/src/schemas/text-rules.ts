/**
 * The text rules every schema applies, as plain predicates (no zod here): common.ts builds the zod
 * schemas from them and login.ts its zod/mini one, so the sign-in page does not load zod's classic API.
 */

/** A UTF-16 surrogate without its pair: not a character, and no UTF-8 (the database's) can hold it. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text PostgreSQL can store: no NUL (it refuses it) and no broken surrogate. */
export function storableText(s: string): boolean {
  return !s.includes("\u0000") && !UNPAIRED_SURROGATE.test(s);
}

/**
 * What a name or other one-line field must not hold: C0 and C1 control characters (BEL, ESC, line
 * breaks, tab), DEL, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) that make a name read differently from what it is.
 */
export function unsafeInLine(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
      return true;
  }
  return false;
}

/** Plain ASCII e-mail check: the product refuses Turkish characters in addresses (code 120). */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
