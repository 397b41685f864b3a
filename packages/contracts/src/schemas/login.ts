import * as z from "zod/mini";
import type { MessageKey } from "../messages/tr.ts";
import { EMAIL_PATTERN, storableText, unsafeInLine } from "./text-rules.ts";

/**
 * The sign-in request, in zod/mini: the same zod (one core, one way to validate; the server's type
 * provider and the form's resolver take either API), but only the checks it uses reach the sign-in
 * page, not zod's whole classic API (issue 34: sign-in ≤ 200 kB). Same rules, order and messages as
 * the classic schemas of account.ts (`requiredText`, `textInput`).
 */
const err = (key: MessageKey) => ({ error: key });
const required = (key: MessageKey) => ({ error: key, abort: true });
const controlCharacter = err("request.textControlCharacter");

export const loginSchema = z.object({
  email: z.string(err("validation.loginEmailRequired")).check(
    z.refine(storableText, controlCharacter),
    z.refine((s) => !unsafeInLine(s), controlCharacter),
    z.trim(),
    z.minLength(1, required("validation.loginEmailRequired")),
    z.minLength(3, required("validation.loginMin3")),
    z.maxLength(50, required("validation.loginMax50")),
    z.regex(EMAIL_PATTERN, err("validation.emailInvalid")),
  ),
  password: z
    .string(err("validation.passwordRequired"))
    .check(
      z.minLength(1, required("validation.passwordRequired")),
      z.minLength(3, required("validation.loginMin3")),
      z.maxLength(50, err("validation.loginMax50")),
    ),
  /** ALTCHA payload (base64); required only when the server asks for it. */
  captcha: z.optional(z.string().check(z.refine(storableText, controlCharacter), z.maxLength(4000))),
});
export type LoginRequest = z.infer<typeof loginSchema>;
