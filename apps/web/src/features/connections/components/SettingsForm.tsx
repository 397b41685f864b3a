import type { SettingDto, SettingKey, SettingValues } from "@ep/contracts";
import { Alert, Button, Group, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "@/i18n";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { useSaveSettings } from "../api";

export type Draft = Partial<SettingValues>;
export type DraftApi = {
  draft: Draft;
  set: <K extends SettingKey>(key: K, value: SettingValues[K]) => void;
  errors: Partial<Record<SettingKey, string>>;
};

/** Holds a type's settings as a draft and saves all of them with one POST /api/settings. */
export function SettingsForm({
  settings,
  label,
  children,
}: {
  settings: SettingDto[];
  label: string;
  children: (api: DraftApi) => ReactNode;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(
    () => Object.fromEntries(settings.map((s) => [s.key, s.value])) as Draft,
  );
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<DraftApi["errors"]>({});
  const [formError, setFormError] = useState<string | null>(null);
  const save = useSaveSettings();
  const keys = settings.map((s) => s.key as SettingKey);

  const set: DraftApi["set"] = (key, value) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setDirty(true);
  };

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    try {
      const { message } = await save.mutateAsync(keys.map((key) => ({ key, value: draft[key] })));
      setDirty(false);
      notifications.show({ color: "green", message });
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        const next: DraftApi["errors"] = {};
        for (const e of error.fieldErrors) {
          const index = Number(e.field.split(".")[1]);
          const key = keys[index];
          if (key) next[key] = translateMessage(e.message);
        }
        setErrors(next);
      }
      setFormError(errorMessage(error));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        {children({ draft, set, errors })}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!dirty}>
            {t("common.saveChanges")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
