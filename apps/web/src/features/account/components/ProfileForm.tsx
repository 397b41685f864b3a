import { type Account, updateAccountSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormFrame, NameFields, PhoneField, SubmitRow } from "@/components/form/fields";
import { useServerForm } from "@/components/form/useServerForm";
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
  const { control, formState, formError, onSubmit } = useServerForm<Values>(
    { resolver: zodResolver(updateAccountSchema), defaultValues: valuesOf(account) },
    ["first_Name", "last_Name", "phone"],
    async (values) => {
      const { data } = await update.mutateAsync(values);
      return { values: valuesOf(data), message: t("api.profileUpdated", { ns: "shared" }) };
    },
  );

  return (
    <FormFrame label={t("account.profileSection")} onSubmit={onSubmit} error={formError}>
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
      <SubmitRow loading={formState.isSubmitting} disabled={!formState.isDirty}>
        {t("common.saveChanges")}
      </SubmitRow>
    </FormFrame>
  );
}
