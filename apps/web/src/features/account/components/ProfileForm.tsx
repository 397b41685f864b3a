import { type Account, updateAccountSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertCircle } from "@tabler/icons-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { PhoneInput } from "@/components/form/PhoneInput";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors, fieldError } from "@/lib/form-errors";
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
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
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
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t("account.firstName")}
            autoComplete="given-name"
            withAsterisk
            error={fieldError(errors.first_Name)}
            {...register("first_Name")}
          />
          <TextInput
            label={t("account.lastName")}
            autoComplete="family-name"
            withAsterisk
            error={fieldError(errors.last_Name)}
            {...register("last_Name")}
          />
        </SimpleGrid>
        <TextInput
          label={t("account.email")}
          value={account.companyUser.email}
          readOnly
          variant="filled"
          description={t("account.emailHelp")}
        />
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <PhoneInput
              label={t("account.phone")}
              withAsterisk
              error={fieldError(errors.phone)}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
            />
          )}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {t("common.saveChanges")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
