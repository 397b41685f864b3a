// Its own module so the web's first load carries only these names (a module is never split between
// chunks; the rest of partners.ts loads with the entry screen).
/**
 * The shops with a partner link, in the spec's order: all the entry screen's routes need (the rest of
 * an entry loads with the screen).
 */
export const PARTNER_PRODUCTS = [
  "ikas",
  "ideasoft",
  "sentos",
  "tsoft",
  "shopify",
  "sopyo",
  "jetstok",
  "shopier",
] as const;
export type PartnerProduct = (typeof PARTNER_PRODUCTS)[number];
