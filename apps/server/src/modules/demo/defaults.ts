/** The demo company's sign-in unless DEMO_EMAIL / DEMO_PASSWORD say otherwise. */
export const DEMO_DEFAULT_EMAIL = "demo@entegrasyonpaneli.com";
export const DEMO_DEFAULT_PASSWORD = "Demo.Panel2026";
