import { i18next } from "@/i18n";
import { ApiError } from "./api-client";

/** A short readable message for any failed call: the server's text, or ours when it sent none. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return i18next.t("common.networkError");
    if (error.message) return error.message;
  }
  return i18next.t("common.unexpectedError");
}
