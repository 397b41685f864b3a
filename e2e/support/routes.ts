/**
 * Every screen of the panel, for the suites that walk them all (the CSP check, the 390 px check):
 * one list, so a new screen is checked everywhere by adding it here.
 */
export const PUBLIC_ROUTES = [
  "/account/login",
  "/account/registration",
  "/account/forgot-password",
  "/account/reset-password?rowid=gecersiz",
  "/error/404",
  "/error/500",
  // Partner entry links, signed out: the landing that offers sign-in or registration.
  "/ikas-auth?storeName=magaza",
  "/tsoft-auth?domain=magaza.example.com",
];

/** A signed-in company's screens (ticket detail pages are added by the suites that make a ticket). */
export const COMPANY_ROUTES = [
  "/dashboard",
  "/integration/product",
  "/integration/product/failed-tasks?jobType=ProductIntegration",
  "/integration/order",
  "/integration/order/failed-tasks?jobType=OrderIntegration",
  "/integration/order/invoices",
  "/reports",
  "/notifications",
  "/activities",
  "/settings",
  "/settings/account/details",
  "/settings/company",
  "/settings/licence",
  "/settings/api-keys",
  "/settings/integration",
  "/settings/integration/ProductIntegration",
  "/settings/integration/StockIntegration",
  "/settings/integration/OrderIntegration",
  "/settings/stock-locations",
  "/settings/privacy",
  "/settings/retention",
  "/tickets",
  "/tickets/create",
  "/about",
];

export const SUPPORT_ROUTES = [
  "/support",
  "/support/companies",
  "/support/announcements",
  "/support/actions",
  "/support/connection-checks",
];
