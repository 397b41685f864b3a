/** The five equal parts of the password strength meter (spec section 5). */
export const PASSWORD_RULES = [
  { id: "length", test: (p: string) => p.length >= 8 },
  { id: "lower", test: (p: string) => /[a-zçğıöşü]/.test(p) },
  { id: "upper", test: (p: string) => /[A-ZÇĞİÖŞÜ]/.test(p) },
  { id: "digit", test: (p: string) => /\d/.test(p) },
  { id: "special", test: (p: string) => /[^A-Za-z0-9çğıöşüÇĞİÖŞÜ\s]/.test(p) },
] as const;

export type PasswordRuleId = (typeof PASSWORD_RULES)[number]["id"];
export const PASSWORD_STRENGTH_PARTS = PASSWORD_RULES.length;

/** Which of the five rules a password meets. */
export function passwordChecks(password: string): Record<PasswordRuleId, boolean> {
  return Object.fromEntries(PASSWORD_RULES.map((rule) => [rule.id, rule.test(password)])) as Record<
    PasswordRuleId,
    boolean
  >;
}

/** 0 to 5: one point for each rule met, each worth the same share. */
export function passwordScore(password: string): number {
  return PASSWORD_RULES.reduce((score, rule) => score + (rule.test(password) ? 1 : 0), 0);
}

/** 0 to 100, in steps of 20. */
export function passwordStrengthPercent(password: string): number {
  return (passwordScore(password) / PASSWORD_STRENGTH_PARTS) * 100;
}
