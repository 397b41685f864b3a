import type { LoginResult } from "@ep/contracts";
import { INSTALL_ERROR_CODES } from "@ep/contracts";
import { Alert, Button, Loader, Stack, Text, TextInput } from "@mantine/core";
import { IconPlugConnected } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { ApiError, api } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { FormHeading } from "../components/FormHeading";
import { startSession } from "../session-store";

/** Where a failed install ends: the sign-in screen with the spec's dialog (section 8). */
export const installErrorPath = (code: string, requestType: "ideasoft" | "logo" = "ideasoft") =>
  `/account/login?${new URLSearchParams({ request_type: requestType, error_code: code })}`;

export const knownCode = (value: unknown): string =>
  typeof value === "string" && (INSTALL_ERROR_CODES as readonly string[]).includes(value)
    ? value
    : "system_exception";

/** An install failure's code and the cause the server named (`data.cause`), if any. */
export function installFailure(error: unknown): { code: string; cause?: string } {
  const data =
    error instanceof ApiError ? (error.data as { errorCode?: unknown; cause?: unknown } | null) : null;
  return {
    code: knownCode(data?.errorCode),
    ...(typeof data?.cause === "string" ? { cause: data.cause } : {}),
  };
}

/**
 * `/ideasoft-app-install` and `/{product}-auth`: Ideasoft's consent page sends the merchant here with
 * `code` and `domain`. The server exchanges the code, finds or creates the company and answers a
 * one-time sign-in code; signing in with it ends on the dashboard with the shop connected.
 */
export default function PartnerInstallPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    // One exchange per landing: a code works once (React's dev double effect must not spend it twice).
    if (started.current) return;
    started.current = true;
    const code = params.get("code");
    const domain = params.get("domain");
    if (!code || !domain) {
      navigate(installErrorPath("system_exception"), { replace: true });
      return;
    }
    (async () => {
      try {
        // A landing without our state (an install begun in Ideasoft's app store, or a link someone
        // sent) is started again from this browser: the consent page answers with a state bound to it.
        if (!params.get("state")) {
          const { url } = await api.get<{ url: string; state: string }>(
            `/api/partner-install/ideasoft/authorize?${new URLSearchParams({ domain })}`,
          );
          window.location.assign(url);
          return;
        }
        const { rowId } = await api.post<{ rowId: string; created: boolean }>(
          "/api/partner-install/ideasoft",
          { code, domain, state: params.get("state") },
        );
        startSession(await api.post<LoginResult>("/api/account/login-by-rowId", { rowId }));
        navigate("/dashboard", { replace: true });
      } catch (error) {
        // The cause travels in the history state, never in the address (no text of others on our page).
        const { code, cause } = installFailure(error);
        navigate(installErrorPath(code), { replace: true, state: { cause } });
      }
    })();
  }, [params, navigate]);

  return (
    <Stack align="center" gap="md" py="xl" data-testid="partner-install">
      <Loader />
      <Text fw={600}>{t("auth.install.connecting")}</Text>
    </Stack>
  );
}

/** `/ideasoft-oauth2`: a merchant starting from our side names the store and is sent to its consent page. */
export function IdeasoftOAuthPage() {
  const { t } = useTranslation();
  const [domain, setDomain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const { url } = await api.get<{ url: string; state: string }>(
        `/api/partner-install/ideasoft/authorize?${new URLSearchParams({ domain: domain.trim() })}`,
      );
      window.location.assign(url);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <>
      <FormHeading title={t("auth.install.oauthTitle")}>{t("auth.install.oauthHelp")}</FormHeading>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={t("auth.install.domainLabel")}
            placeholder="magaza.myideasoft.com"
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
            required
          />
          <Button
            type="submit"
            loading={busy}
            leftSection={<IconPlugConnected size={18} />}
            disabled={!domain.trim()}
          >
            {t("auth.install.connect")}
          </Button>
        </Stack>
      </form>
    </>
  );
}
