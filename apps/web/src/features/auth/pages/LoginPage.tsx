import { BusinessCode, type LoginRequest } from "@ep/contracts";
import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconInfoCircle } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { EmailField, PasswordField } from "@/components/form/fields";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { lazyResolver } from "@/lib/lazy-resolver";
import { authKeys, fetchConfig, signIn } from "../api";
import { CaptchaField, type CaptchaHandle, type CaptchaLevel } from "../components/CaptchaField";
import { FormHeading } from "../components/FormHeading";
import { forgetSessionEnd, peekSignInNote } from "../session-store";

type LoginValues = LoginRequest;

/** zod and the schema are not part of the sign-in page's first load (issue 13: sign-in ≤ 200 kB). */
const login = lazyResolver<LoginValues>(() => import("../login-resolver").then((m) => m.loginResolver));

/** Only partner install redirects carry an error dialog; its code loads only then. */
const InstallErrorDialog = lazy(() =>
  import("../components/InstallErrorDialog").then((m) => ({ default: m.InstallErrorDialog })),
);

/** The captcha level a 130/131 answer asks for. */
function captchaLevelOf(error: ApiError): CaptchaLevel | undefined {
  const level = (error.data as { captchaLevel?: unknown } | null)?.captchaLevel;
  return level === "hard" || level === "normal" ? level : undefined;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [note] = useState(peekSignInNote);
  useEffect(forgetSessionEnd, []);
  const config = useQuery({
    queryKey: authKeys.config,
    queryFn: ({ signal }) => fetchConfig(signal),
    staleTime: 300_000,
  });
  // The server may ask for a captcha (or a harder one) after failures, even when the mode is off.
  const [captchaLevel, setCaptchaLevel] = useState<CaptchaLevel | null>(null);
  const showCaptcha =
    captchaLevel !== null || (config.data ? config.data.captcha !== "off" : !config.isPending);
  const captcha = useRef<CaptchaHandle>(null);
  const [captchaPayload, setCaptchaPayload] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const {
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { isSubmitting },
  } = useForm<LoginValues>({
    resolver: login.resolver,
    defaultValues: { email: "", password: "" },
    mode: "onTouched",
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    let token = captchaPayload;
    // The widget solves on load; if it has not finished (or was just reset), finish it now.
    if (showCaptcha && !token) token = await captcha.current?.ensure();
    try {
      await signIn({ email: values.email, password: values.password, captcha: token });
      // The signed-in routes take over from here (/account/* → /dashboard).
    } catch (error) {
      const demanded = error instanceof ApiError ? captchaLevelOf(error) : undefined;
      // A new level resets the widget itself (with the harder challenge); otherwise a fresh one now.
      if (demanded === "hard" && captchaLevel !== "hard") setCaptchaLevel("hard");
      else captcha.current?.reset();
      if (!(error instanceof ApiError)) return setFormError(errorMessage(error));
      if (error.httpStatus === 401) return setFormError(t("auth.login.failed"));
      if (
        error.statusCode === BusinessCode.CaptchaRequired ||
        error.statusCode === BusinessCode.CaptchaInvalid
      ) {
        if (captchaLevel === null && demanded !== "hard") setCaptchaLevel("normal");
        return setFormError(
          error.message ||
            t(error.statusCode === 130 ? "api.captchaRequired" : "api.captchaInvalid", { ns: "shared" }),
        );
      }
      if (applyServerFieldErrors(error, setError, ["email", "password"])) return;
      setFormError(errorMessage(error));
    }
  });

  const fillDemo = () => {
    if (!config.data?.demo) return;
    setValue("email", config.data.demo.email, { shouldValidate: true });
    setValue("password", config.data.demo.password, { shouldValidate: true });
  };

  return (
    <>
      {params.has("error_code") && (
        <Suspense fallback={null}>
          <InstallErrorDialog />
        </Suspense>
      )}
      <FormHeading title={t("auth.login.title")}>
        {t("auth.login.subtitle")}{" "}
        <Anchor component={Link} to="/account/registration" fw={600}>
          {t("auth.login.registerLink")}
        </Anchor>
      </FormHeading>

      {/* The validation's chunk is requested when the visitor starts on the form, not at first paint. */}
      <form onSubmit={onSubmit} onFocus={login.preload} noValidate aria-label={t("auth.login.title")}>
        <Stack gap="md">
          {note && !formError && (
            <Alert
              color={note === "passwordChanged" ? "green" : "yellow"}
              icon={<IconInfoCircle size={18} />}
              variant="light"
              role="status"
              data-testid="sign-in-note"
            >
              {note === "expired" && t("auth.login.sessionExpired")}
              {note === "passwordChanged" && t("auth.login.passwordChanged")}
              {note === "resetLinkInvalid" && (
                <>
                  {t("auth.login.resetLinkInvalid")}{" "}
                  <Anchor component={Link} to="/account/forgot-password" size="sm">
                    {t("auth.login.requestNewLink")}
                  </Anchor>
                </>
              )}
            </Alert>
          )}
          {formError && (
            <Alert
              color="red"
              icon={<IconAlertCircle size={18} />}
              variant="light"
              role="alert"
              data-testid="login-error"
            >
              {formError}
            </Alert>
          )}
          {config.data?.demo && (
            <Alert
              color="brand"
              variant="light"
              title={t("auth.login.demoTitle")}
              icon={<IconInfoCircle size={18} />}
            >
              <Text size="sm">{t("auth.login.demoText")}</Text>
              <Text size="sm" ff="monospace" mt={4}>
                {config.data.demo.email} / {config.data.demo.password}
              </Text>
              <Button size="compact-sm" variant="light" mt="xs" onClick={fillDemo}>
                {t("auth.login.demoFill")}
              </Button>
            </Alert>
          )}
          <EmailField
            control={control}
            name="email"
            label={t("auth.login.email")}
            placeholder={t("auth.login.emailPlaceholder")}
            autoComplete="username"
            size="md"
          />
          <Stack gap={6}>
            <PasswordField
              control={control}
              name="password"
              label={t("auth.login.password")}
              autoComplete="current-password"
              size="md"
            />
            <Group justify="flex-end">
              <Anchor component={Link} to="/account/forgot-password" size="sm" fw={500}>
                {t("auth.login.forgotPassword")}
              </Anchor>
            </Group>
          </Stack>
          {showCaptcha && (
            <CaptchaField
              ref={captcha}
              onChange={setCaptchaPayload}
              level={captchaLevel ?? "normal"}
              deferred
            />
          )}
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={isSubmitting}
            loaderProps={{ type: "dots" }}
            mt="xs"
          >
            {t("auth.login.submit")}
          </Button>
        </Stack>
      </form>
    </>
  );
}
