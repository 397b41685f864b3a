import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { useAccount } from "../api";
import { PasswordForm } from "../components/PasswordForm";
import { ProfileForm } from "../components/ProfileForm";
import { SectionCard } from "../components/SectionCard";

/** /settings/account/details — profile and password. */
export default function AccountDetailsPage() {
  const { t } = useTranslation();
  const account = useAccount();
  return (
    <>
      <PageHeader
        title={t("account.title")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <Stack gap="lg" maw={960}>
        <SectionCard title={t("account.profileSection")}>
          <QueryBoundary query={account}>
            {(data) => <ProfileForm key={data.companyUser.id} account={data} />}
          </QueryBoundary>
        </SectionCard>
        <SectionCard title={t("account.passwordSection")}>
          <PasswordForm />
        </SectionCard>
      </Stack>
    </>
  );
}
