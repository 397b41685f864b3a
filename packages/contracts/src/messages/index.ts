import type { Language } from "../enums.ts";
import { de } from "./de.ts";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { fr } from "./fr.ts";
import { ja } from "./ja.ts";
import { type MessageCatalog, type MessageKey, tr } from "./tr.ts";
import { zh } from "./zh.ts";

export type { MessageCatalog, MessageKey };
export const catalogs: Record<Language, MessageCatalog> = { tr, en, de, es, fr, ja, zh };

/** Resolves a shared message key in a language (Turkish by default), filling `{{name}}` slots. */
export function message(
  key: MessageKey,
  params?: Record<string, string | number>,
  lang: Language = "tr",
): string {
  let node: unknown = catalogs[lang];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  const text = typeof node === "string" ? node : key;
  return params ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? "")) : text;
}

/** True when a string is one of the shared message keys (zod issues carry keys, not texts). */
export function isMessageKey(value: string): value is MessageKey {
  return message(value as MessageKey) !== value;
}
