import { type ApiVersionPin, versionPinStatus } from "../sdk/version-pin";

/**
 * The version-pin test: throws the Turkish-and-English explanation when `pin` is past its vendor's end
 * of support on `now`. Use in each connector's contract test:
 * `it("speaks a supported API version", () => expectPinnedVersionSupported(SHOPIFY_VERSION_PIN));`
 */
export function expectPinnedVersionSupported(pin: ApiVersionPin, now: Date = new Date()): void {
  const status = versionPinStatus(pin, now);
  if (!status.ok) throw new Error(status.message);
}
