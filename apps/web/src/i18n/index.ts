import signedOutTr from "virtual:signed-out-messages";
import {
  DEFAULT_LANGUAGE,
  type Language,
  type MessageCatalog,
  type MessageKey,
  SUPPORTED_LANGUAGES,
} from "@ep/contracts";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import tr from "./locales/tr.json";

/**
 * i18next with two namespaces: `translation` (this app's texts, src/i18n/locales) and `shared`
 * (the contracts catalogues the server also uses — zod issues carry their keys).
 * Turkish ships in the main bundle, of the shared catalogue only the groups the signed-out screens
 * use (vite.config.ts); the rest of it loads with the signed-in screens (`ensureFeatureLocales`).
 * Another stored language is fetched, whole, before the first render.
 */
export const LANGUAGE_STORAGE_KEY = "i18nConfig";

type LocaleTree = { [key: string]: string | LocaleTree };

const localeLoaders = import.meta.glob<{ default: typeof tr }>(["./locales/*.json", "!./locales/tr.json"]);
/**
 * A feature keeps its own texts in `src/features/<feature>/locales/<lang>.json`; they are merged
 * under the key `<feature>` (so `t("tickets.list.title")`), and a new feature only adds files.
 * They load with the signed-in routes (`ensureFeatureLocales`), so the sign-in page ships none.
 */
const featureLoaders = import.meta.glob<{ default: LocaleTree }>("../features/*/locales/*.json");
const featureOf = (path: string) => path.split("/")[2] ?? "";

async function loadFeatureLocales(lang: Language): Promise<Record<string, LocaleTree>> {
  const entries = Object.entries(featureLoaders).filter(([path]) => path.endsWith(`/${lang}.json`));
  const trees = await Promise.all(
    entries.map(async ([path, load]) => [featureOf(path), (await load()).default] as const),
  );
  return Object.fromEntries(trees);
}

let featureLocales: Promise<void> | undefined;

/**
 * Adds every feature's texts and the whole Turkish shared catalogue (the current language and the
 * Turkish fallback) to i18next, once.
 */
export function ensureFeatureLocales(): Promise<void> {
  featureLocales ??= (async () => {
    const languages = [...new Set([i18next.language, DEFAULT_LANGUAGE])].filter(isLanguage);
    const [sharedTr, ...features] = await Promise.all([
      loadShared("tr"),
      ...languages.map((lang) => loadFeatureLocales(lang)),
    ]);
    i18next.addResourceBundle(DEFAULT_LANGUAGE, "shared", sharedTr, true, false);
    languages.forEach((lang, i) => {
      i18next.addResourceBundle(lang, "translation", features[i], true, true);
    });
  })();
  return featureLocales;
}

const sharedLoaders = import.meta.glob<Record<string, MessageCatalog>>([
  "../../../../packages/contracts/src/messages/*.ts",
  // Negations relative to this file: `**/index.ts` does not reach outside the app's root.
  "!../../../../packages/contracts/src/messages/index.ts",
]);

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The stored language choice (`{"selectedLang":"tr"}`), Turkish when nothing valid is stored. */
export function getStoredLanguage(): Language {
  try {
    const raw = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as { selectedLang?: unknown }) : null;
    if (isLanguage(parsed?.selectedLang)) return parsed.selectedLang;
  } catch {
    // unreadable storage: fall back to the default
  }
  return DEFAULT_LANGUAGE;
}

/** Stores the choice and reloads the page (spec section 1). */
export function changeLanguage(lang: Language): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, JSON.stringify({ selectedLang: lang }));
  window.location.reload();
}

async function loadLocale(lang: Language): Promise<typeof tr> {
  const loader = lang === "tr" ? undefined : localeLoaders[`./locales/${lang}.json`];
  return loader ? (await loader()).default : tr;
}

/** A whole shared catalogue (its own chunk, Turkish's too). */
async function loadShared(lang: Language): Promise<Partial<MessageCatalog>> {
  const loader = sharedLoaders[`../../../../packages/contracts/src/messages/${lang}.ts`];
  return (loader && (await loader())[lang]) || signedOutTr;
}

export async function initI18n(lang: Language = getStoredLanguage()) {
  const [translation, shared] = await Promise.all([
    loadLocale(lang),
    lang === "tr" ? signedOutTr : loadShared(lang),
  ]);
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: ["translation", "shared"],
    defaultNS: "translation",
    resources: {
      [lang]: { translation, shared },
      ...(lang === DEFAULT_LANGUAGE ? {} : { [DEFAULT_LANGUAGE]: { translation: tr, shared: signedOutTr } }),
    },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  if (typeof document !== "undefined") document.documentElement.lang = lang;
  return i18next;
}

/**
 * Text for a message that may be a shared key (`validation.emailRequired`, from the zod schemas)
 * or already a readable sentence (field errors the server sends in Turkish).
 */
export function translateMessage(text: string | undefined | null): string {
  if (!text) return "";
  if (!i18next.exists(text, { ns: "shared" })) return text;
  return i18next.t(text as MessageKey, { ns: "shared" });
}

export { i18next };
