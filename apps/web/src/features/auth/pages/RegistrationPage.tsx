import {
  BusinessCode,
  ECOMMERCE_TYPES,
  ERP_TYPES,
  registerSchema,
  type SystemAvailability,
} from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { z } from "zod";
import {
  EmailField,
  FormFrame,
  NameFields,
  NewPasswordField,
  PhoneField,
  TextField,
} from "@/components/form/fields";
import { ApiError } from "@/lib/api-client";
import { applyServerFieldErrors, fieldError } from "@/lib/form-errors";
import { authKeys, fetchConfig, register as registerAccount, signIn } from "../api";
import { CaptchaField, type CaptchaHandle } from "../components/CaptchaField";
import { FormHeading } from "../components/FormHeading";

type RegisterValues = z.input<typeof registerSchema>;
const FIELDS = [
  "company_Name",
  "email",
  "password",
  "first_Name",
  "last_Name",
  "phone",
  "erpType",
  "ecommerceType",
] as const;

type Availability = Record<string, SystemAvailability> | undefined;

/**
 * The options keep the spec's names and order; a system not ready yet says "(Yakında)" in the list
 * itself (as the language menu does), and the state of the picked system shows under the list.
 */
function optionsOf(
  types: typeof ERP_TYPES | typeof ECOMMERCE_TYPES,
  availability: Availability,
  soon: string,
) {
  return types.map((o) => ({
    value: String(o.value),
    label: availability?.[String(o.value)] === "soon" ? `${o.label} ${soon}` : o.label,
  }));
}

/** What a merchant who picks a system that is not directly connectable should know (or nothing). */
function AvailabilityHelp({ type, availability }: { type: number | undefined; availability: Availability }) {
  const { t } = useTranslation();
  const state = type === undefined ? undefined : availability?.[String(type)];
  if (!state || state === "available") return null;
  return (
    <Alert color={state === "soon" ? "yellow" : "blue"} variant="light" data-testid={`availability-${state}`}>
      {t(`auth.register.availabilityHelp.${state}`)}
    </Alert>
  );
}

type Dialog = { title: string; body?: string } | null;

export default function RegistrationPage() {
  const { t } = useTranslation();
  const config = useQuery({
    queryKey: authKeys.config,
    queryFn: ({ signal }) => fetchConfig(signal),
    staleTime: 300_000,
  });
  // The sign-in right after registering takes a captcha when the mode is "required"; the registration
  // itself when the server asks for one (several registrations from one address).
  const [registrationCaptcha, setRegistrationCaptcha] = useState(false);
  const needsCaptcha = config.data?.captcha === "required" || registrationCaptcha;
  const captcha = useRef<CaptchaHandle>(null);
  const [captchaPayload, setCaptchaPayload] = useState<string | undefined>();
  const [formStatus, setFormStatus] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isValid },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    mode: "onTouched",
    defaultValues: {
      company_Name: "",
      email: "",
      password: "",
      first_Name: "",
      last_Name: "",
      phone: "",
      erpType: undefined,
      ecommerceType: undefined,
    },
  });
  const erpOptions = optionsOf(ERP_TYPES, config.data?.systems.erp, t("common.comingSoon"));
  const ecommerceOptions = optionsOf(ECOMMERCE_TYPES, config.data?.systems.ecommerce, t("common.comingSoon"));
  const erpType = useWatch({ control, name: "erpType" });
  const ecommerceType = useWatch({ control, name: "ecommerceType" });

  const onSubmit = handleSubmit(async (values) => {
    setFormStatus(null);
    try {
      const token = registrationCaptcha ? (captchaPayload ?? (await captcha.current?.ensure())) : undefined;
      await registerAccount({ ...values, captcha: token });
    } catch (error) {
      if (!(error instanceof ApiError))
        return setDialog({ title: t("api.registrationFailed", { ns: "shared" }) });
      if (error.isNetworkError) return setFormStatus(t("api.registrationNetworkFailed", { ns: "shared" }));
      if (
        error.statusCode === BusinessCode.CaptchaRequired ||
        error.statusCode === BusinessCode.CaptchaInvalid
      ) {
        // Solved payloads are single use: a fresh challenge for the next press of the button.
        if (registrationCaptcha) captcha.current?.reset();
        setCaptchaPayload(undefined);
        setRegistrationCaptcha(true);
        return setFormStatus(
          error.message ||
            t(
              error.statusCode === BusinessCode.CaptchaRequired
                ? "api.captchaRequired"
                : "api.captchaInvalid",
              {
                ns: "shared",
              },
            ),
        );
      }
      const emailMessage = {
        [BusinessCode.InvalidEmailFormat]: t("api.invalidEmailFormat", { ns: "shared" }),
        [BusinessCode.EmailHasTurkishCharacters]:
          error.message || t("api.emailHasTurkishCharacters", { ns: "shared" }),
        [BusinessCode.EmailAlreadyRegistered]:
          error.message || t("api.emailAlreadyRegistered", { ns: "shared" }),
      }[error.statusCode as 119 | 120 | 105];
      if (emailMessage)
        return setError("email", { type: "server", message: emailMessage }, { shouldFocus: true });
      if (applyServerFieldErrors(error, setError, FIELDS)) return;
      return setDialog({
        title: t("api.registrationFailed", { ns: "shared" }),
        body: error.message || undefined,
      });
    }
    try {
      // The registration spent its solution: the sign-in solves a fresh one.
      if (registrationCaptcha) captcha.current?.reset();
      const token = needsCaptcha
        ? ((registrationCaptcha ? undefined : captchaPayload) ?? (await captcha.current?.ensure()))
        : undefined;
      await signIn({ email: values.email, password: values.password, captcha: token });
      // Signed in: the panel routes take over.
    } catch {
      setDialog({
        title: t("auth.register.autoLoginFailedTitle"),
        body: t("api.autoLoginFailed", { ns: "shared" }),
      });
    }
  });

  return (
    <>
      <FormHeading title={t("auth.register.title")}>
        {t("auth.register.subtitle")}{" "}
        <Anchor component={Link} to="/account/login" fw={600}>
          {t("auth.register.loginLink")}
        </Anchor>
      </FormHeading>

      <FormFrame label={t("auth.register.title")} onSubmit={onSubmit} error={formStatus}>
        <TextField
          control={control}
          name="company_Name"
          label={t("auth.register.companyName")}
          autoComplete="organization"
          withAsterisk
        />
        <EmailField control={control} name="email" label={t("auth.register.email")} />
        <NewPasswordField control={control} name="password" label={t("auth.register.password")} />
        <NameFields
          control={control}
          first={{ name: "first_Name", label: t("auth.register.firstName") }}
          last={{ name: "last_Name", label: t("auth.register.lastName") }}
        />
        <PhoneField control={control} name="phone" label={t("auth.register.phone")} withAsterisk />
        <Controller
          control={control}
          name="erpType"
          render={({ field }) => (
            <Select
              label={t("auth.register.erpType")}
              placeholder={t("auth.register.erpTypePlaceholder")}
              data={erpOptions}
              searchable
              withAsterisk
              maxDropdownHeight={280}
              error={fieldError(errors.erpType)}
              value={field.value === undefined ? null : String(field.value)}
              onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
              data-testid="erp-select"
            />
          )}
        />
        <AvailabilityHelp type={erpType} availability={config.data?.systems.erp} />
        <Controller
          control={control}
          name="ecommerceType"
          render={({ field }) => (
            <Select
              label={t("auth.register.ecommerceType")}
              placeholder={t("auth.register.ecommerceTypePlaceholder")}
              data={ecommerceOptions}
              withAsterisk
              error={fieldError(errors.ecommerceType)}
              value={field.value === undefined ? null : String(field.value)}
              onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
              data-testid="ecommerce-select"
            />
          )}
        />
        <AvailabilityHelp type={ecommerceType} availability={config.data?.systems.ecommerce} />
        {needsCaptcha && <CaptchaField ref={captcha} onChange={setCaptchaPayload} />}
        <Stack gap="sm" mt="xs">
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={isSubmitting}
            // Spec section 5: disabled while the form is invalid, from the first render on.
            disabled={!isValid && !isSubmitting}
            aria-describedby={isValid ? undefined : "registration-incomplete"}
          >
            {t("auth.register.submit")}
          </Button>
          {!isValid && (
            <Text id="registration-incomplete" size="xs" c="dimmed" ta="center">
              {t("auth.register.incomplete")}
            </Text>
          )}
          <Button component={Link} to="/account/login" variant="light" color="gray" size="md" fullWidth>
            {t("auth.register.backToLogin")}
          </Button>
        </Stack>
      </FormFrame>

      <Modal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        centered
        title={<Text fw={700}>{dialog?.title}</Text>}
      >
        {dialog?.body && <Text size="sm">{dialog.body}</Text>}
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => setDialog(null)} data-autofocus>
            {t("common.close")}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
