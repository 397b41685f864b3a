import { type Account, updateAccountSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormErrorAlert, NameFields, PhoneField, SubmitRow } from "@/components/form/fields";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { useUpdateProfile } from "../api";

type Values = z.input<typeof updateAccountSchema>;
const valuesOf = (account: Account): Values => ({
  first_Name: account.companyUser.first_Name,
  last_Name: account.companyUser.last_Name,
  phone: account.companyUser.phone,
});

/** First name, last name, phone → PUT /api/Account. */
export function ProfileForm({ account }: { account: Account }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isDirty, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(updateAccountSchema),
    defaultValues: valuesOf(account),
    mode: "onTouched",
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { data } = await update.mutateAsync(values);
      reset(valuesOf(data));
      notifications.show({ color: "green", message: t("api.profileUpdated", { ns: "shared" }) });
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["first_Name", "last_Name", "phone"]))
        setFormError(errorMessage(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("account.profileSection")}>
      <Stack gap="md">
        <FormErrorAlert message={formError} />
        <NameFields
          control={control}
          first={{ name: "first_Name", label: t("account.firstName") }}
          last={{ name: "last_Name", label: t("account.lastName") }}
        />
        <TextInput
          label={t("account.email")}
          value={account.companyUser.email}
          readOnly
          variant="filled"
          description={t("account.emailHelp")}
        />
        <PhoneField control={control} name="phone" label={t("account.phone")} withAsterisk />
        <SubmitRow loading={isSubmitting} disabled={!isDirty}>
          {t("common.saveChanges")}
        </SubmitRow>
      </Stack>
    </form>
  );
}
