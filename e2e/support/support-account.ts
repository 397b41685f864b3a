/** The support-team account the e2e server is started with (SUPPORT_EMAIL / SUPPORT_PASSWORD). */
export const SUPPORT_ACCOUNT = { email: "destek@e2e.example.com", password: "Destek.Sifre1" } as const;
