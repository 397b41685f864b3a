import { loginSchema } from "@ep/contracts";
import { describe, expect, it } from "vitest";

/** The first message per field, as the form shows it. */
function messages(input: unknown): Record<string, string | undefined> {
  const result = loginSchema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string | undefined> = {};
  for (const issue of result.error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
}

describe("loginSchema (zod/mini): the sign-in rules of spec section 5", () => {
  it("says which field is required, too short, too long or not an e-mail", () => {
    expect(messages({ email: "", password: "" })).toEqual({
      email: "validation.loginEmailRequired",
      password: "validation.passwordRequired",
    });
    expect(messages({})).toEqual({
      email: "validation.loginEmailRequired",
      password: "validation.passwordRequired",
    });
    expect(messages({ email: "a@", password: "ab" })).toEqual({
      email: "validation.loginMin3",
      password: "validation.loginMin3",
    });
    expect(messages({ email: `${"a".repeat(45)}@ex.com`, password: "p".repeat(51) })).toEqual({
      email: "validation.loginMax50",
      password: "validation.loginMax50",
    });
    expect(messages({ email: "ayşe@example.com", password: "Guclu.Sifre1" })).toEqual({
      email: "validation.emailInvalid",
    });
    expect(messages({ email: "ayse@example.com\u0000", password: "Guclu.Sifre1" }).email).toBe(
      "request.textControlCharacter",
    );
    expect(
      messages({ email: "ayse@example.com", password: "x".repeat(8), captcha: "c".repeat(4001) }),
    ).toHaveProperty("captcha");
  });

  it("trims the e-mail and keeps the captcha payload optional", () => {
    expect(loginSchema.parse({ email: "  ayse@example.com ", password: "Guclu.Sifre1" })).toEqual({
      email: "ayse@example.com",
      password: "Guclu.Sifre1",
    });
    expect(loginSchema.parse({ email: "ayse@example.com", password: "abc", captcha: "eyJ" }).captcha).toBe(
      "eyJ",
    );
  });
});
