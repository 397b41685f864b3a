import type { ConnectionField, ConnectionTest } from "@ep/contracts";
import { Alert, PasswordInput, TextInput } from "@mantine/core";
import { IconCircleCheck, IconCircleX } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "@/i18n";
import { ApiError } from "@/lib/api-client";

/**
 * One field a connector declares, on a connection form (the shop's and ERP's cards, a marketplace's):
 * a secret is never shown, and a stored one is kept unless a new value is typed.
 */
export function CredentialField({
  field: f,
  value,
  error,
  stored = false,
  onChange,
}: {
  field: ConnectionField;
  value: string;
  error?: string;
  /** A secret of this field is stored already: not required again, and said so. */
  stored?: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const common = {
    label: f.label,
    description: f.help ?? undefined,
    withAsterisk: f.required && !stored,
    error,
    value,
    onChange: (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value),
  };
  return f.secret ? (
    <PasswordInput
      {...common}
      autoComplete="new-password"
      placeholder={stored ? t("connections.apiKeys.secretKept") : undefined}
    />
  ) : (
    <TextInput
      {...common}
      inputMode={f.type === "number" ? "numeric" : f.type === "url" ? "url" : undefined}
      placeholder={f.placeholder ?? f.default ?? undefined}
    />
  );
}

/** A connection test's answer, as every connection form shows it. */
export function TestResultAlert({ result, testId }: { result: ConnectionTest; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      role="status"
      data-testid={testId}
      color={result.ok ? "green" : "red"}
      variant="light"
      icon={result.ok ? <IconCircleCheck size={18} /> : <IconCircleX size={18} />}
      title={t(result.ok ? "connections.apiKeys.testOk" : "connections.apiKeys.testFailed")}
    >
      {result.message}
    </Alert>
  );
}

/** The per-field errors of a connection save or test (`fields.<name>`), or null for another failure. */
export function credentialErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return null;
  return Object.fromEntries(
    error.fieldErrors.map((e) => [e.field.replace(/^fields\./, ""), translateMessage(e.message)]),
  );
}
