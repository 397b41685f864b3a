/**
 * The API version a connector speaks, with its vendor's published end of support. A test per connector
 * (`expectPinnedVersionSupported` in the testing kit) fails once the date has passed, so a version that
 * the vendor retires cannot stay pinned unnoticed.
 */

export interface ApiVersionPin {
  system: string;
  /** Human name of the API, e.g. "Shopify Admin GraphQL API". */
  api: string;
  /** The version we send, e.g. "2026-07". */
  version: string;
  /**
   * Last day the vendor supports it (ISO date, inclusive), or null when the vendor publishes none —
   * then `noDateReason` says why (e.g. an on-site database schema with no retirement policy).
   */
  endOfSupport: string | null;
  noDateReason?: string;
  /** Where the date (or the reason) comes from. */
  source: string;
}

export interface VersionPinStatus {
  ok: boolean;
  /** Days until end of support (negative once past); undefined without a date. */
  daysLeft?: number;
  /** Turkish, then English. */
  message: string;
}

const DAY_MS = 86_400_000;

/** Whether `pin` is still supported on `now` (day precision, UTC). */
export function versionPinStatus(pin: ApiVersionPin, now: Date = new Date()): VersionPinStatus {
  if (pin.endOfSupport === null) {
    const reason = pin.noDateReason?.trim();
    return reason
      ? {
          ok: true,
          message: `${pin.api} ${pin.version}: üreticinin yayımladığı bir destek bitiş tarihi yok (${reason}). / No published end of support (${reason}).`,
        }
      : {
          ok: false,
          message: `${pin.api} ${pin.version}: destek bitiş tarihi de, neden olmadığı da yazılmamış. / Neither an end-of-support date nor why there is none is declared.`,
        };
  }
  const end = Date.parse(`${pin.endOfSupport}T23:59:59.999Z`);
  if (Number.isNaN(end)) {
    return { ok: false, message: `${pin.api}: geçersiz tarih / invalid date "${pin.endOfSupport}"` };
  }
  const daysLeft = Math.floor((end - now.getTime()) / DAY_MS);
  if (now.getTime() <= end) {
    return {
      ok: true,
      daysLeft,
      message: `${pin.api} ${pin.version} ${pin.endOfSupport} tarihine kadar destekleniyor (${daysLeft} gün). / Supported until ${pin.endOfSupport} (${daysLeft} days).`,
    };
  }
  return {
    ok: false,
    daysLeft,
    message:
      `${pin.api} ${pin.version} sürümünün üretici desteği ${pin.endOfSupport} tarihinde bitti; bağlayıcıyı ` +
      `desteklenen bir sürüme taşıyın ve bu sürümün değişikliklerini (changelog) kurallara işleyin ` +
      `(kaynak: ${pin.source}). / ${pin.api} ${pin.version} reached its vendor's end of support on ` +
      `${pin.endOfSupport}; move the connector to a supported version and turn that version's changelog ` +
      `into runtime rules (source: ${pin.source}).`,
  };
}
