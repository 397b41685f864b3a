/**
 * Business codes carried in the envelope's `statusCode`. Where the spec names no code, the
 * envelope carries the HTTP status itself.
 */
export const BusinessCode = {
  EmailAlreadyRegistered: 105,
  InvalidEmailFormat: 119,
  EmailHasTurkishCharacters: 120,
  CaptchaRequired: 130,
  CaptchaInvalid: 131,
} as const;
export type BusinessCode = (typeof BusinessCode)[keyof typeof BusinessCode];
