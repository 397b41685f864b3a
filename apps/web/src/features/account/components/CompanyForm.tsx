import { type Company, updateCompanySchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { SimpleGrid, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormFrame, PhoneField, SubmitRow } from "@/components/form/fields";
import { useServerForm } from "@/components/form/useServerForm";
import { fieldError } from "@/lib/form-errors";
import { ANY_PHONE_MASK } from "@/lib/phone-mask";
import { useUpdateCompany } from "../api";

type Values = z.input<typeof updateCompanySchema>;
const FIELDS = ["company_Name", "tax_Office", "tax_Number", "address", "phone", "website"] as const;
const valuesOf = (c: Company): Values => ({
  company_Name: c.company_Name,
  tax_Office: c.tax_Office,
  tax_Number: c.tax_Number,
  address: c.address,
  phone: c.phone,
  website: c.website,
});

/** Company name, tax office, tax number, address, phone, web address → PUT /api/Account/company. */
export function CompanyForm({ company }: { company: Company }) {
  const { t } = useTranslation();
  const update = useUpdateCompany();
  const {
    register,
    control,
    formState: { errors, isDirty, isSubmitting },
    formError,
    onSubmit,
  } = useServerForm<Values>(
    { resolver: zodResolver(updateCompanySchema), defaultValues: valuesOf(company) },
    FIELDS,
    async (values) => {
      const { data } = await update.mutateAsync({
        company_Name: values.company_Name,
        tax_Office: values.tax_Office ?? "",
        tax_Number: values.tax_Number ?? "",
        address: values.address ?? "",
        phone: values.phone ?? "",
        website: values.website ?? "",
      });
      return {
        values: data.company ? valuesOf(data.company) : undefined,
        message: t("api.companyUpdated", { ns: "shared" }),
      };
    },
  );

  return (
    <FormFrame label={t("company.title")} onSubmit={onSubmit} error={formError}>
      <TextInput
        label={t("company.companyName")}
        autoComplete="organization"
        withAsterisk
        error={fieldError(errors.company_Name)}
        {...register("company_Name")}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label={t("company.taxOffice")}
          error={fieldError(errors.tax_Office)}
          {...register("tax_Office")}
        />
        <TextInput
          label={t("company.taxNumber")}
          inputMode="numeric"
          maxLength={11}
          error={fieldError(errors.tax_Number)}
          {...register("tax_Number")}
        />
      </SimpleGrid>
      <Textarea
        label={t("company.address")}
        autosize
        minRows={3}
        maxRows={6}
        autoComplete="street-address"
        error={fieldError(errors.address)}
        {...register("address")}
      />
      <PhoneField control={control} name="phone" label={t("company.phone")} mask={ANY_PHONE_MASK} />
      <TextInput
        label={t("company.website")}
        description={t("company.websiteHelp")}
        inputMode="url"
        autoComplete="url"
        placeholder="https://"
        error={fieldError(errors.website)}
        {...register("website")}
      />
      <SubmitRow loading={isSubmitting} disabled={!isDirty}>
        {t("common.saveChanges")}
      </SubmitRow>
    </FormFrame>
  );
}
