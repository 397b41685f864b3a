import {
  ECOMMERCE_TYPES,
  ERP_TYPES,
  type PartnerEntry,
  type PartnerProduct,
  partnerEntry,
  partnerStore,
} from "@ep/contracts";
import { Button, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconLogin, IconPlugConnected, IconUserPlus } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { useAccount } from "@/features/account/api";
import { api } from "@/lib/api-client";
import { FormHeading } from "../components/FormHeading";
import { PartnerErrorDialog } from "../components/InstallErrorDialog";
import { rememberPartnerReturn } from "../partner-return";
import { useIsSignedIn } from "../session-store";
import PartnerInstallPage, { installFailure } from "./PartnerInstallPage";

type Failure = { code: string; cause?: string };

/** A signed-in merchant's failed entry: the spec's dialog with the cause; closing goes home. */
function FailureDialog({ failure }: { failure: Failure }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PartnerErrorDialog
      {...failure}
      closeLabel={t("auth.entry.toDashboard")}
      onClose={() => navigate("/dashboard", { replace: true })}
    />
  );
}

/**
 * `/{product}-auth` (and Ideasoft's `/ideasoft-app-install`), one screen for every shop of the list:
 * - signed out: sign in or register, then back here (an Ideasoft app-store landing with a code still
 *   makes or finds the store's company, as before);
 * - signed in: "connect this store to <company>?"; confirming sends an OAuth shop to its consent page
 *   and opens the connection form for the others; the consent page's answer (code and state) stores
 *   the tokens on the company's connection.
 * Every failure is the spec's install dialog with the cause the server named.
 */
export default function PartnerEntryPage({ product }: { product: PartnerProduct }) {
  const entry = partnerEntry(product) as PartnerEntry;
  const signedIn = useIsSignedIn();
  const [params] = useSearchParams();
  if (!signedIn) {
    if (entry.product === "ideasoft" && params.get("code")) return <PartnerInstallPage />;
    return <SignInFirst entry={entry} />;
  }
  return params.get("code") ? <ConnectCallback entry={entry} /> : <ConfirmConnect entry={entry} />;
}

function SignInFirst({ entry }: { entry: PartnerEntry }) {
  const { t } = useTranslation();
  const location = useLocation();
  // Back to this very link (store, signature and all) once the merchant is signed in.
  const remember = () => rememberPartnerReturn(`${location.pathname}${location.search}`);
  return (
    <Stack gap="lg" data-testid="partner-sign-in">
      <FormHeading title={t("auth.entry.signInTitle", { system: entry.name })}>
        {t("auth.entry.signInHelp")}
      </FormHeading>
      <Group grow>
        <Button component={Link} to="/account/login" onClick={remember} leftSection={<IconLogin size={18} />}>
          {t("auth.entry.signIn")}
        </Button>
        <Button
          component={Link}
          to="/account/registration"
          onClick={remember}
          variant="light"
          leftSection={<IconUserPlus size={18} />}
        >
          {t("auth.entry.register")}
        </Button>
      </Group>
    </Stack>
  );
}

const systemName = (entry: PartnerEntry, type: number | undefined): string | undefined =>
  [...(entry.kind === "shop" ? ECOMMERCE_TYPES : ERP_TYPES)].find((s) => s.value === type)?.label;

function ConfirmConnect({ entry }: { entry: PartnerEntry }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const account = useAccount();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const company = account.data?.company;
  const store = partnerStore(entry, params);
  const currentType = entry.kind === "shop" ? company?.ecommerceType : company?.erpType;
  const current =
    currentType && currentType !== entry.systemType ? systemName(entry, currentType) : undefined;

  const confirm = async () => {
    setBusy(true);
    try {
      const { url, external } = await api.post<{ url: string; external: boolean }>(
        `/api/partner-install/${entry.product}/start`,
        store ? { store } : {},
      );
      if (external) {
        window.location.assign(url);
        return;
      }
      notifications.show({ color: "teal", message: t("auth.entry.formOpened", { system: entry.name }) });
      navigate(url, { replace: true });
    } catch (error) {
      setFailure(installFailure(error));
      setBusy(false);
    }
  };

  if (failure) return <FailureDialog failure={failure} />;
  return (
    <>
      {/* Behind the dialog, the card says what this screen is. */}
      <FormHeading title={t("auth.entry.confirmTitle", { system: entry.name })}>{store}</FormHeading>
      <Modal
        opened
        centered
        withCloseButton={false}
        onClose={() => navigate("/dashboard", { replace: true })}
        title={<Text fw={700}>{t("auth.entry.confirmTitle", { system: entry.name })}</Text>}
        data-testid="partner-confirm"
      >
        <Stack gap="sm">
          <Text data-testid="partner-confirm-question">
            {t("auth.entry.confirm", { company: company?.company_Name ?? "" })}
          </Text>
          {store && (
            <Text size="sm" c="dimmed">
              {t("auth.entry.store", { store })}
            </Text>
          )}
          <Text size="sm">
            {t(entry.flow === "form" ? "auth.entry.formHint" : "auth.entry.oauthHint", {
              system: entry.name,
            })}
          </Text>
          {current && <Text size="sm">{t("auth.entry.replaceHint", { current })}</Text>}
        </Stack>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => navigate("/dashboard", { replace: true })} disabled={busy}>
            {t("auth.entry.cancel")}
          </Button>
          <Button
            onClick={confirm}
            loading={busy}
            disabled={!company}
            leftSection={<IconPlugConnected size={18} />}
            data-autofocus
          >
            {t("auth.entry.confirmButton")}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function ConnectCallback({ entry }: { entry: PartnerEntry }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  useEffect(() => {
    // A code works once: React's development double effect must not spend it twice.
    if (started.current) return;
    started.current = true;
    (async () => {
      try {
        const { system, store } = await api.post<{ system: string; store: string }>(
          `/api/partner-install/${entry.product}/connect`,
          {
            store: partnerStore(entry, params),
            code: params.get("code") ?? "",
            state: params.get("state") ?? undefined,
            query: Object.fromEntries(params),
          },
        );
        notifications.show({ color: "teal", message: t("auth.entry.connected", { system, store }) });
        navigate("/settings/api-keys", { replace: true });
      } catch (error) {
        setFailure(installFailure(error));
      }
    })();
  }, [entry, params, navigate, t]);

  if (failure) return <FailureDialog failure={failure} />;
  return (
    <Stack align="center" gap="md" py="xl" data-testid="partner-install">
      <Loader />
      <Text fw={600}>{t("auth.entry.connecting", { system: entry.name })}</Text>
    </Stack>
  );
}
