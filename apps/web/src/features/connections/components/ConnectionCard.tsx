import type { ConnectionField, ConnectionsOverview, ConnectionTest, ConnectionType } from "@ep/contracts";
import { Alert, Badge, Button, Group, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconPlugConnected } from "@tabler/icons-react";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { SectionCard } from "@/features/account/components/SectionCard";
import { AgentPicker, AgentStatusLine } from "@/features/agents/components/AgentStatus";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useSandboxSystems, useSaveConnection, useTestConnection } from "../api";
import { ConnectionUsageLine } from "./ConnectionUsage";
import { CredentialField, credentialErrorsOf, TestResultAlert } from "./CredentialField";
import { FileShopSection } from "./FileShopSection";
import { SandboxBadge, SandboxCredentials } from "./SandboxConnect";
import { SqlMappingSection } from "./SqlMappingSection";
import { WebhookLine } from "./WebhookLine";

/** The generic SQL connector's configuration field, edited in its own section. */
const SQL_CONFIG_FIELD = "sqlConfig";

type Props = { connectionType: ConnectionType; overview: ConnectionsOverview };

const TITLES = {
  erp: "connections.apiKeys.erpTitle",
  ecommerce: "connections.apiKeys.ecommerceTitle",
  einvoice: "connections.apiKeys.einvoiceTitle",
} as const;

const STATUS_LOOK = {
  connected: { color: "green", label: "connections.apiKeys.statusOk" },
  failed: { color: "red", label: "connections.apiKeys.statusFailed" },
  untested: { color: "gray", label: "connections.apiKeys.statusUntested" },
  none: { color: "gray", label: "connections.apiKeys.statusNone" },
} as const;

/**
 * One side's connection: the system, then exactly the fields that system's connector declares.
 * Secrets are never shown: a stored one is kept unless a new value is typed.
 */
export function ConnectionCard({ connectionType, overview }: Props) {
  const { t } = useTranslation();
  const saved = overview[connectionType];
  const systems = overview.connectors.filter((c) => c.connectionType === connectionType);
  // The e-invoice service was not chosen at sign-up: its form starts on the first service listed.
  const registered =
    connectionType === "erp"
      ? overview.registeredErpType
      : connectionType === "ecommerce"
        ? overview.registeredEcommerceType
        : (systems[0]?.productType ?? 0);
  // A partner link (`/{product}-auth`) opens the form on its system: `?shop=4` / `?erp=20` / `?einvoice=8`.
  const [params] = useSearchParams();
  const linked = Number(params.get(connectionType === "ecommerce" ? "shop" : connectionType));
  const [productType, setProductType] = useState(
    systems.some((s) => s.productType === linked) ? linked : (saved?.productType ?? registered),
  );
  const system = systems.find((s) => s.productType === productType);
  const savedHere = saved && saved.productType === productType ? saved : null;
  // The real login kept for a system: choosing it again, or leaving the sandbox, finds it as it was.
  const keptLogins = overview.keptLogins[connectionType];
  const keptFor = (type: number) => keptLogins.find((k) => k.productType === type);
  const initial = useMemo(
    () =>
      valuesFor(
        system?.fields ?? [],
        savedHere ? savedHere.values : keptLogins.find((k) => k.productType === productType)?.values,
      ),
    [system, savedHere, keptLogins, productType],
  );
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [showSandbox, setShowSandbox] = useState(false);
  // ERP side only: directly, or through one of the company's on-site agents.
  const [agentId, setAgentId] = useState<number | null>(saved?.agentId ?? null);
  const viaAgent = connectionType === "erp";
  const save = useSaveConnection();
  const test = useTestConnection();
  const title = t(TITLES[connectionType]);

  const changeSystem = (value: string | null) => {
    const next = Number(value);
    const nextSystem = systems.find((s) => s.productType === next);
    setProductType(next);
    setValues(
      valuesFor(nextSystem?.fields ?? [], saved?.productType === next ? saved.values : keptFor(next)?.values),
    );
    const kept = saved?.productType === next ? undefined : keptFor(next);
    if (kept) setAgentId(kept.agentId);
    setSwitching(false);
    setErrors({});
    setResult(null);
    setFormError(null);
  };

  const fail = (error: unknown) => {
    const fieldErrors = credentialErrorsOf(error);
    if (fieldErrors) setErrors(fieldErrors);
    else setFormError(errorMessage(error));
  };

  const call = { connectionType, productType, fields: values, ...(viaAgent ? { agentId } : {}) };
  const onTest = async () => {
    setErrors({});
    setFormError(null);
    setResult(null);
    try {
      setResult(await test.mutateAsync(call));
    } catch (error) {
      fail(error);
    }
  };
  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    try {
      const { message, data } = await save.mutateAsync(call);
      notifications.show({ color: "green", message });
      setValues(valuesFor(system?.fields ?? [], data.connection.values));
      setResult(data.connection.lastTest);
      setSwitching(false);
    } catch (error) {
      fail(error);
    }
  };

  const lastTest = savedHere?.lastTest;
  const isMapping = system?.availability === "mapping";
  const labels = Object.fromEntries((system?.fields ?? []).map((f) => [f.name, f.label]));
  const sandboxes = useSandboxSystems();
  const hasSandbox = !!sandboxes.data?.some(
    (s) => s.connectionType === connectionType && s.productType === productType,
  );
  return (
    <SectionCard
      title={title}
      icon={<IconPlugConnected size={20} aria-hidden />}
      aside={
        <Group gap={6}>
          {savedHere?.isEmulated && <SandboxBadge />}
          {savedHere ? (
            // The server's one status (last test or last runs, whichever is newer), as on the dashboard.
            <Badge
              color={STATUS_LOOK[savedHere.status.state].color}
              variant="light"
              title={savedHere.status.message}
              data-testid={`connection-status-${connectionType}`}
            >
              {t(STATUS_LOOK[savedHere.status.state].label)}
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              {t("connections.apiKeys.statusNotSaved")}
            </Badge>
          )}
        </Group>
      }
      anchor={`connection-${connectionType}`}
      testId={`connection-${connectionType}`}
    >
      <form onSubmit={onSave} noValidate aria-label={title}>
        <Stack gap="md">
          {connectionType === "einvoice" && (
            <Text size="sm" c="dimmed" data-testid="einvoice-help">
              {t("connections.apiKeys.einvoiceHelp")}
            </Text>
          )}
          {connectionType === "einvoice" && !saved && overview.invoiceRoute === "erpService" && (
            <Alert color="blue" variant="light" data-testid="einvoice-via-erp">
              {t("connections.apiKeys.einvoiceViaErp", { system: overview.erp?.name ?? "" })}
            </Alert>
          )}
          <Select
            label={t("connections.apiKeys.system")}
            data={systems.map((s) => ({
              value: String(s.productType),
              label: s.implemented ? s.name : `${s.name} ${t("connections.apiKeys.soon")}`,
            }))}
            value={String(productType)}
            onChange={changeSystem}
            allowDeselect={false}
            searchable
          />
          {system && !system.implemented && (
            <Alert color="yellow" variant="light" data-testid={`not-ready-${connectionType}`}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t("connections.apiKeys.notImplemented")}</Text>
                <Button size="xs" variant="light" color="yellow" component={Link} to="/tickets">
                  {t("connections.apiKeys.myTickets")}
                </Button>
              </Stack>
            </Alert>
          )}
          {system?.availability === "mapping" && (
            <Alert color="teal" variant="light" data-testid={`mapping-note-${connectionType}`}>
              {t("connections.sqlMapping.availability")}
            </Alert>
          )}
          {system?.availability === "files" && (
            <FileShopSection
              connectionId={savedHere && !switching ? savedHere.id : undefined}
              panelUrl={savedHere?.values.panelUrl || undefined}
            />
          )}
          {/* A mapping system's note above already says how it is reached. */}
          {system?.implemented && system.onPremOnly && system.availability !== "mapping" && (
            <Text size="sm" c="dimmed">
              {t("connections.apiKeys.onPrem")}
            </Text>
          )}
          {system?.implemented && system.supportWarning && (
            <Alert color="red" variant="light" data-testid={`support-ended-${connectionType}`}>
              {system.supportWarning}
            </Alert>
          )}
          {system?.implemented && (system.limitations?.length ?? 0) > 0 && (
            <Alert color="yellow" variant="light" data-testid={`limitations-${connectionType}`}>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t("connections.apiKeys.limitations")}
                </Text>
                {system.limitations?.map((line) => (
                  <Text size="sm" key={line}>
                    {line}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}
          {viaAgent && system?.implemented && (
            <AgentPicker
              value={agentId}
              onChange={(next) => {
                setAgentId(next);
                setResult(null);
              }}
            />
          )}
          {viaAgent && savedHere?.agentId && (
            <AgentStatusLine agentId={savedHere.agentId} testId="connection-agent-status" />
          )}
          {savedHere && <ConnectionUsageLine connectionType={connectionType} />}
          {savedHere && connectionType === "ecommerce" && <WebhookLine />}
          {savedHere?.isEmulated && !switching && (
            <Alert color="violet" variant="light" data-testid={`sandbox-note-${connectionType}`}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t("connections.sandbox.connectedNote")}</Text>
                <Button
                  size="xs"
                  variant="light"
                  color="violet"
                  onClick={() => {
                    // The real login kept for this system (empty if none); mappings and settings stay.
                    const kept = keptFor(productType);
                    setValues(valuesFor(system?.fields ?? [], kept?.values));
                    if (kept) setAgentId(kept.agentId);
                    setSwitching(true);
                    setResult(null);
                  }}
                >
                  {t("connections.sandbox.switchToReal")}
                </Button>
              </Stack>
            </Alert>
          )}
          {switching && (
            <Alert color="blue" variant="light">
              {t("connections.sandbox.switchHelp")}
            </Alert>
          )}
          {formError && (
            <Alert color="red" variant="light" role="alert">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {(system?.fields ?? [])
              .filter((f) => !(isMapping && f.name === SQL_CONFIG_FIELD))
              .map((f) => {
                const shown = savedHere && !switching ? savedHere : keptFor(productType);
                return (
                  <CredentialField
                    key={f.name}
                    field={f}
                    value={values[f.name] ?? ""}
                    error={errors[f.name]}
                    stored={f.secret && !!shown?.secretsSet.includes(f.name)}
                    onChange={(value) => setValues((v) => ({ ...v, [f.name]: value }))}
                  />
                );
              })}
          </SimpleGrid>
          {isMapping && (
            <SqlMappingSection
              value={values[SQL_CONFIG_FIELD] ?? ""}
              onChange={(value) => setValues((v) => ({ ...v, [SQL_CONFIG_FIELD]: value }))}
              connectionId={savedHere?.id}
            />
          )}
          {system?.implemented &&
            hasSandbox &&
            ((savedHere?.isEmulated && !switching) || showSandbox ? (
              <SandboxCredentials connectionType={connectionType} productType={productType} labels={labels} />
            ) : (
              <Button variant="subtle" size="xs" color="violet" onClick={() => setShowSandbox(true)}>
                {t("connections.sandbox.showCredentials")}
              </Button>
            ))}
          {result && <TestResultAlert result={result} testId={`connection-test-${connectionType}`} />}
          {!result && lastTest && (
            <Text size="sm" c="dimmed">
              {t("connections.apiKeys.lastTest", { date: formatDateTime(lastTest.testedAt) })}:{" "}
              {lastTest.message}
            </Text>
          )}
          {!result && savedHere?.status.source === "run" && (
            <Text size="sm" c={savedHere.status.state === "failed" ? "red" : "dimmed"}>
              {savedHere.status.message}
            </Text>
          )}
          {/* A system without a connector has nothing to test or save: no dead buttons. */}
          {system?.implemented !== false && (
            <Group justify="flex-end">
              <Button
                variant="light"
                onClick={onTest}
                loading={test.isPending}
                disabled={!system?.implemented || save.isPending}
              >
                {t("connections.apiKeys.test")}
              </Button>
              <Button
                type="submit"
                loading={save.isPending}
                disabled={!system?.implemented || test.isPending}
              >
                {t("connections.apiKeys.save")}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </SectionCard>
  );
}

function valuesFor(fields: ConnectionField[], saved?: Record<string, string>): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, f.secret ? "" : (saved?.[f.name] ?? "")]));
}
