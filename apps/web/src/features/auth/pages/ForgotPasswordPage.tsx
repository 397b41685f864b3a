import { forgotPasswordSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, Stack } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { z } from "zod";
import { EmailField } from "@/components/form/fields";
import { recoverPassword } from "../api";
import { FormHeading } from "../components/FormHeading";

type Values = z.input<typeof forgotPasswordSchema>;
type Status = { ok: boolean; text: string } | null;

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>(null);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: "" },
    mode: "onTouched",
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    setStatus(null);
    try {
      const result = await recoverPassword(email);
      // The spec counts 204 (no content) as a failure.
      if (result.httpStatus === 204) throw new Error("no content");
      setStatus({ ok: true, text: t("api.recoverMailSent", { ns: "shared" }) });
    } catch {
      setStatus({ ok: false, text: t("api.recoverMailFailed", { ns: "shared" }) });
    }
  });

  return (
    <>
      <FormHeading title={t("auth.forgot.title")}>{t("auth.forgot.subtitle")}</FormHeading>
      <form onSubmit={onSubmit} noValidate aria-label={t("auth.forgot.title")}>
        <Stack gap="md">
          {status && (
            <Alert
              color={status.ok ? "green" : "red"}
              variant="light"
              icon={status.ok ? <IconCircleCheck size={18} /> : <IconAlertCircle size={18} />}
              role={status.ok ? "status" : "alert"}
              data-testid="forgot-status"
            >
              {status.text}
            </Alert>
          )}
          <EmailField control={control} name="email" label={t("auth.forgot.email")} size="md" />
          <Group grow mt="xs">
            <Button type="submit" size="md" loading={isSubmitting}>
              {t("auth.forgot.submit")}
            </Button>
            <Button component={Link} to="/account/login" variant="light" color="gray" size="md">
              {t("auth.forgot.backToLogin")}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
