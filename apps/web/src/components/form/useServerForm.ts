import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { type FieldValues, type UseFormProps, useForm } from "react-hook-form";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors } from "@/lib/form-errors";

/** What a successful submit leaves: the values the form now holds (none: keep them) and the toast's text. */
export type Saved<T> = { values?: T; message: string };

/**
 * A settings form whose submit goes to the server: the server's per-field messages land under their
 * fields, any other failure in the form's alert (`formError`, for FormErrorAlert); a success resets the
 * form to what the server saved and shows a green toast.
 */
export function useServerForm<T extends FieldValues>(
  options: UseFormProps<T>,
  fields: readonly string[],
  send: (values: T) => Promise<Saved<T>>,
) {
  const form = useForm<T>({ mode: "onTouched", ...options });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await send(values);
      if (saved.values) form.reset(saved.values);
      notifications.show({ color: "green", message: saved.message });
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, fields)) setFormError(errorMessage(error));
    }
  });
  return { ...form, formError, onSubmit };
}
