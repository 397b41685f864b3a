import { updatePasswordSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { SimpleGrid, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormErrorAlert, NewPasswordField, PasswordField, SubmitRow } from "@/components/form/fields";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { useUpdatePassword } from "../api";

type Values = z.input<typeof updatePasswordSchema>;
const EMPTY: Values = { oldPassword: "", password: "", confirmPassword: "" };

/** Current, new and repeated password → POST /api/Account/update-password. */
export function PasswordForm() {
  const { t } = useTranslation();
  const update = useUpdatePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(updatePasswordSchema),
    defaultValues: EMPTY,
    mode: "onTouched",
  });

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
        <FormErrorAlert message={formError} />
        <PasswordField
          control={control}
          name="oldPassword"
          label={t("account.oldPassword")}
          autoComplete="current-password"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NewPasswordField control={control} name="password" label={t("account.newPassword")} />
          <PasswordField
            control={control}
            name="confirmPassword"
            label={t("account.confirmPassword")}
            autoComplete="new-password"
          />
        </SimpleGrid>
        <SubmitRow loading={isSubmitting}>{t("account.changePassword")}</SubmitRow>
      </Stack>
    </form>
  );
}
