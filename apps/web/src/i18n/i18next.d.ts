import type { MessageCatalog } from "@ep/contracts";
import type tr from "./locales/tr.json";

/**
 * The app's texts: the shell's (`./locales`) and each feature's own `locales/tr.json`, merged under
 * the feature's folder name. A feature with texts adds its one line to `FeatureTexts`.
 */
type FeatureTexts = {
  dashboard: typeof import("../features/dashboard/locales/tr.json");
  notifications: typeof import("../features/notifications/locales/tr.json");
  activities: typeof import("../features/activities/locales/tr.json");
  reports: typeof import("../features/reports/locales/tr.json");
  integration: typeof import("../features/integration/locales/tr.json");
  connections: typeof import("../features/connections/locales/tr.json");
  tickets: typeof import("../features/tickets/locales/tr.json");
  support: typeof import("../features/support/locales/tr.json");
  about: typeof import("../features/about/locales/tr.json");
  privacy: typeof import("../features/privacy/locales/tr.json");
  agents: typeof import("../features/agents/locales/tr.json");
  retention: typeof import("../features/retention/locales/tr.json");
};

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof tr & FeatureTexts; shared: MessageCatalog };
  }
}
