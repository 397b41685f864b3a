import { resetPasswordFormSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, Stack } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import type { z } from "zod";
import { LoadingState } from "@/components/feedback/LoadingState";
import { NewPasswordField, PasswordField } from "@/components/form/fields";
import { checkRowId, resetPassword } from "../api";
import { FormHeading } from "../components/FormHeading";
import { noteForSignIn } from "../session-store";

type Values = z.input<typeof resetPasswordFormSchema>;
export const RESET_REDIRECT_MS = 3000;

/** /account/reset-password?rowid=…: the link is checked first; missing or invalid goes to sign-in. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const rowid = params.get("rowid") ?? params.get("rowId") ?? "";
  const check = useQuery({
    queryKey: ["reset-link", rowid],
    queryFn: async () => (await checkRowId(rowid)).data,
    enabled: rowid !== "",
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  if (!rowid || check.isError) return <InvalidLink />;
  if (check.isPending) return <LoadingState label={t("auth.reset.checking")} minHeight={300} />;
  return <ResetForm rowid={rowid} />;
}

/** A missing, unknown, expired or used link: to sign-in, with a note saying so and what to do. */
function InvalidLink() {
  useEffect(() => noteForSignIn("resetLinkInvalid"), []);
  return <Navigate to="/account/login" replace />;
}

function ResetForm({ rowid }: { rowid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { newPassword: "", confirmPassword: "" },
    mode: "onTouched",
  });

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => {
      noteForSignIn("passwordChanged");
      navigate("/account/login", { replace: true });
    }, RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await resetPassword({
        rowid,
        newPassword: values.newPassword,
        confirmPassword: values.confirmPassword,
      });
      setDone(true);
    } catch {
      // Spec: a failed reset only re-enables the button.
    }
  });

  return (
    <>
      <FormHeading title={t("auth.reset.title")}>{t("auth.reset.subtitle")}</FormHeading>
      <form onSubmit={onSubmit} noValidate aria-label={t("auth.reset.title")}>
        <Stack gap="md">
          {done && (
            <Alert
              color="green"
              variant="light"
              icon={<IconCircleCheck size={18} />}
              role="status"
              data-testid="reset-done"
            >
              {t("api.passwordReset", { ns: "shared" })}
            </Alert>
          )}
          <NewPasswordField
            control={control}
            name="newPassword"
            label={t("auth.reset.newPassword")}
            size="md"
          />
          <PasswordField
            control={control}
            name="confirmPassword"
            label={t("auth.reset.confirmPassword")}
            autoComplete="new-password"
            size="md"
          />
          <Group grow mt="xs">
            <Button type="submit" size="md" loading={isSubmitting} disabled={done}>
              {t("auth.reset.submit")}
            </Button>
            <Button component={Link} to="/account/login" variant="light" color="gray" size="md">
              {t("auth.reset.backToLogin")}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
