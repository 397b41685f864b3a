/**
 * Input masks where `9` is a digit slot and every other character is literal, as in the spec's
 * mobile mask `0 (599) 999-9999`: the leading `0` and `5` are fixed, nine digits are typed.
 * The form keeps digits only (`05321234567`); the field shows the masked text.
 */
export const MOBILE_PHONE_MASK = "0 (599) 999-9999";
/** Any Turkish number with its trunk 0 (company land lines too). */
export const ANY_PHONE_MASK = "0 (999) 999-9999";

const SLOT = "9";
const isDigit = (c: string) => c >= "0" && c <= "9";

/**
 * Lays typed text into the mask. Literal digits of the mask are consumed when typed or pasted,
 * so `05321234567`, `5321234567` and `0532 123 45 67` all give `0 (532) 123-4567`.
 * Stops at the last filled slot, so a partial number shows no trailing literals.
 */
export function applyMask(input: string, mask: string = MOBILE_PHONE_MASK): string {
  let digits = input.replace(/\D/g, "");
  // A pasted international form (+90 532 …): drop the country code.
  if (digits.startsWith("90") && digits.length > countSlots(mask) + 1) digits = digits.slice(2);
  if (!digits) return "";
  let out = "";
  let pending = "";
  let i = 0;
  for (const m of mask) {
    if (i >= digits.length) break;
    if (m === SLOT) {
      out += pending + digits[i];
      pending = "";
      i++;
    } else if (isDigit(m)) {
      pending += m;
      if (digits[i] === m) {
        out += pending;
        pending = "";
        i++;
      }
    } else {
      pending += m;
    }
  }
  return out;
}

function countSlots(mask: string): number {
  let n = 0;
  for (const m of mask) if (m === SLOT) n++;
  return n;
}

/** The digits the form stores: `0 (532) 123-4567` → `05321234567`. */
export function maskToDigits(masked: string): string {
  return masked.replace(/\D/g, "");
}

/** Stored digits to the text the field shows. */
export function formatPhone(digits: string | null | undefined, mask: string = MOBILE_PHONE_MASK): string {
  return digits ? applyMask(digits, mask) : "";
}

/** True when every slot of the mask is filled. */
export function isMaskComplete(masked: string, mask: string = MOBILE_PHONE_MASK): boolean {
  return masked.length === mask.length && applyMask(masked, mask) === masked;
}
