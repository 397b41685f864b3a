import { describe, expect, it } from "vitest";
import { isSessionValid, sessionExpiresAt, tokenExpiry } from "../src/features/auth/session-store";

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;

describe("session expiry", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");

  it("reads the exp claim of a JWT", () => {
    expect(tokenExpiry(jwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(tokenExpiry("not-a-jwt")).toBeNull();
  });

  it("is invalid once the stored expiration is earlier than now", () => {
    expect(isSessionValid({ token: "t", expiration: "2025-06-01T11:59:59Z" }, now)).toBe(false);
    expect(isSessionValid({ token: "t", expiration: "2025-06-01T12:00:01Z" }, now)).toBe(true);
  });

  it("uses the earlier of stored expiration and token claim", () => {
    const token = jwt({ exp: Date.parse("2025-06-01T11:00:00Z") / 1000 });
    expect(isSessionValid({ token, expiration: "2030-01-01T00:00:00Z" }, now)).toBe(false);
    expect(sessionExpiresAt({ token, expiration: "2030-01-01T00:00:00Z" })).toBe(
      Date.parse("2025-06-01T11:00:00Z"),
    );
  });

  it("has no session without a token", () => {
    expect(isSessionValid({ token: null, expiration: "2030-01-01T00:00:00Z" }, now)).toBe(false);
  });
});
