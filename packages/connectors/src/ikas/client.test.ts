import { describe, expect, it } from "vitest";
import type { HttpResponse } from "../sdk/http";
import { classifyIkasResponse } from "./client";

function res(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: new Headers(headers), text: JSON.stringify(body), json: body };
}
const err = (code: string | undefined, message: string) => ({
  data: null,
  errors: [{ message, extensions: code ? { code } : {} }],
});

describe("IKAS answers are classified by extensions.code, never by message text", () => {
  it("maps the codes @ikas/api-client knows", () => {
    const cases: Array<[string, string, string]> = [
      ["ARGUMENT_VALIDATION_ERROR", "validation", "permanent"],
      ["UNAUTHENTICATED", "auth", "permanent"],
      ["INTERNAL_SERVER_ERROR", "server_error", "transient"],
      ["NETWORK_ERROR", "network", "transient"],
      ["ORDER_LINE_IS_ALREADY_PACKAGED", "conflict", "permanent"],
      ["ORDER_NOT_ELIGIBLE_FOR_UPDATE", "conflict", "permanent"],
    ];
    for (const [code, reason, kind] of cases) {
      const e = classifyIkasResponse(res(200, err(code, "x")), "op");
      expect([code, e?.reason, e?.kind]).toEqual([code, reason, kind]);
      expect(e?.systemCode).toBe(code);
    }
  });

  it("does not read meaning into message texts", () => {
    // These texts once decided the class; without a known code they are plain refusals now.
    for (const message of ["Resource is locked, try again", "Request timed out", "Order not found"]) {
      const e = classifyIkasResponse(res(200, err(undefined, message)), "op");
      expect(e?.reason).toBe("validation");
      expect(e?.kind).toBe("permanent");
      expect(e?.systemMessage).toBe(message);
    }
    expect(classifyIkasResponse(res(200, err("SOMETHING_NEW", "x")), "op")?.kind).toBe("permanent");
  });

  it("uses the HTTP status for 401, 429 and bare 5xx", () => {
    expect(classifyIkasResponse(res(401, err("UNAUTHENTICATED", "Token expired")), "op")?.reason).toBe(
      "auth",
    );
    const limited = classifyIkasResponse(
      res(429, err("TOO_MANY_REQUESTS", "x"), { "retry-after": "3" }),
      "op",
    );
    expect([limited?.reason, limited?.retryAfterMs]).toEqual(["rate_limited", 3000]);
    expect(classifyIkasResponse(res(429, err("TOO_MANY_ERRORS", "x")), "op")?.reason).toBe("blocked");
    // A bare 5xx is left to the HTTP client's own classification.
    expect(classifyIkasResponse(res(503, "<html>"), "op")).toBeUndefined();
    expect(classifyIkasResponse(res(200, { data: { ok: true } }), "op")).toBeUndefined();
  });
});
