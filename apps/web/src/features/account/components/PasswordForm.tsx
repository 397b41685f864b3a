import { updatePasswordSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertCircle } from "@tabler/icons-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { PasswordStrengthMeter } from "@/components/form/PasswordStrengthMeter";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors, fieldError } from "@/lib/form-errors";
import { useUpdatePassword } from "../api";

type Values = z.input<typeof updatePasswordSchema>;
const EMPTY: Values = { oldPassword: "", password: "", confirmPassword: "" };

/** Current, new and repeated password → POST /api/Account/update-password. */
export function PasswordForm() {
  const { t } = useTranslation();
  const update = useUpdatePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(updatePasswordSchema),
    defaultValues: EMPTY,
    mode: "onTouched",
  });
  const password = useWatch({ control, name: "password" }) ?? "";

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await update.mutateAsync(values);
      reset(EMPTY);
      notifications.show({
        color: "green",
        message: result.message || t("api.passwordUpdated", { ns: "shared" }),
      });
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["oldPassword", "password", "confirmPassword"])) {
        setFormError(errorMessage(error));
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("account.passwordSection")}>
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {formError}
          </Alert>
        )}
        <PasswordInput
          label={t("account.oldPassword")}
          autoComplete="current-password"
          withAsterisk
          error={fieldError(errors.oldPassword)}
          {...register("oldPassword")}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <div>
            <PasswordInput
              label={t("account.newPassword")}
              autoComplete="new-password"
              withAsterisk
              error={fieldError(errors.password)}
              {...register("password")}
            />
            <PasswordStrengthMeter password={password} />
          </div>
          <PasswordInput
            label={t("account.confirmPassword")}
            autoComplete="new-password"
            withAsterisk
            error={fieldError(errors.confirmPassword)}
            {...register("confirmPassword")}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={isSubmitting}>
            {t("account.changePassword")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
