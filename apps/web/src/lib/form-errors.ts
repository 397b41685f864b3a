import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { translateMessage } from "@/i18n";
import { ApiError } from "@/lib/api-client";

/** Puts the server's per-field messages (HTTP 400 `data.errors`) under their fields; true when any did. */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): boolean {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return false;
  let applied = false;
  for (const { field, message } of error.fieldErrors) {
    const name = fields.find((f) => f.toLowerCase() === field.toLowerCase());
    if (!name) continue;
    setError(
      name as Path<T>,
      { type: "server", message: translateMessage(message) },
      { shouldFocus: !applied },
    );
    applied = true;
  }
  return applied;
}

/** The text of a field's error: shared keys from the zod schemas are translated, sentences kept. */
export function fieldError(error: { message?: string } | undefined): string | undefined {
  return error?.message ? translateMessage(error.message) : undefined;
}
