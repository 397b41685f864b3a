import type { LoginResult } from "@ep/contracts";
import { Alert, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { IconLogin } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { api } from "@/lib/api-client";
import { FormHeading } from "../components/FormHeading";
import { startSession } from "../session-store";
import { installErrorPath, installFailure } from "./PartnerInstallPage";

/** The key Logo İşbaşı sends its user with (the query name is inferred: `apikey`, also `apiKey`/`key`). */
const keyOf = (params: URLSearchParams): string =>
  (params.get("apikey") ?? params.get("apiKey") ?? params.get("key") ?? "").trim();

/**
 * `/logo-auth-redirect`: Logo's sign-on. The user arrives from Logo İşbaşı with its API key and confirms
 * with their İşbaşı e-mail and password; the server checks all three at İşbaşı, signs the tenant's
 * company in or registers it (Logo İşbaşı as ERP, connection made and tested) and answers a one-time
 * sign-in code. Failures end on the sign-in screen with the partner error dialog.
 */
export default function LogoAuthRedirectPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const apiKey = keyOf(params);
  const [username, setUsername] = useState(params.get("email") ?? params.get("username") ?? "");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  if (!apiKey) return <Navigate to={installErrorPath("system_exception", "logo")} replace />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const tenantId = params.get("tenantId")?.trim();
      const { rowId } = await api.post<{ rowId: string; created: boolean }>("/api/partner-install/logo", {
        apiKey,
        username: username.trim(),
        password,
        ...(tenantId ? { tenantId } : {}),
      });
      startSession(await api.post<LoginResult>("/api/account/login-by-rowId", { rowId }));
      navigate("/dashboard", { replace: true });
    } catch (error) {
      const { code, cause } = installFailure(error);
      navigate(installErrorPath(code, "logo"), { replace: true, state: { cause } });
    }
  };

  return (
    <>
      <FormHeading title={t("auth.logo.title")}>{t("auth.logo.help")}</FormHeading>
      <form onSubmit={submit} noValidate data-testid="logo-sign-on">
        <Stack gap="md">
          <Alert color="blue" variant="light">
            {t("auth.logo.keyReceived")}
          </Alert>
          <TextInput
            label={t("auth.logo.username")}
            type="email"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label={t("auth.logo.password")}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          <Button
            type="submit"
            loading={busy}
            leftSection={<IconLogin size={18} />}
            disabled={!username.trim() || !password}
          >
            {t("auth.logo.submit")}
          </Button>
        </Stack>
      </form>
    </>
  );
}
