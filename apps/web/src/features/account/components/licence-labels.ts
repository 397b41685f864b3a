import { i18next } from "@/i18n";

/** The readable name of a licence product type; unknown types are shown as they come. */
export function productTypeLabel(type: string): string {
  const key = `licence.productTypes.${type}`;
  return i18next.exists(key) ? i18next.t(key as "licence.productTypes.ErpIntegration") : type;
}
