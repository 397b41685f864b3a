import { updatePasswordSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { SimpleGrid } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormFrame, NewPasswordField, PasswordField, SubmitRow } from "@/components/form/fields";
import { useServerForm } from "@/components/form/useServerForm";
import { useUpdatePassword } from "../api";

type Values = z.input<typeof updatePasswordSchema>;
const EMPTY: Values = { oldPassword: "", password: "", confirmPassword: "" };

/** Current, new and repeated password → POST /api/Account/update-password. */
export function PasswordForm() {
  const { t } = useTranslation();
  const update = useUpdatePassword();
  const { control, formState, formError, onSubmit } = useServerForm<Values>(
    { resolver: zodResolver(updatePasswordSchema), defaultValues: EMPTY },
    ["oldPassword", "password", "confirmPassword"],
    async (values) => {
      const result = await update.mutateAsync(values);
      return { values: EMPTY, message: result.message || t("api.passwordUpdated", { ns: "shared" }) };
    },
  );

  return (
    <FormFrame label={t("account.passwordSection")} onSubmit={onSubmit} error={formError}>
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
      <SubmitRow loading={formState.isSubmitting}>{t("account.changePassword")}</SubmitRow>
    </FormFrame>
  );
}
