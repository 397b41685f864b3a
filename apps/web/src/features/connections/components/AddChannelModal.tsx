import type { ChannelSystemInfo, ConnectionTest } from "@ep/contracts";
import { Alert, Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { errorMessage } from "@/lib/errors";
import { useAddChannel, useChannelSystems, useTestChannelLogin } from "../channels-api";
import { CredentialField, credentialErrorsOf, TestResultAlert } from "./CredentialField";

/**
 * "Pazaryeri ekle": pick the marketplace, fill exactly the fields its connector declares, test the login,
 * then add it (the server tests it again and gives it its jobs when the ERP is connected).
 */
export function AddChannelModal({
  opened,
  connected,
  onClose,
}: {
  opened: boolean;
  /** The marketplaces connected already (one channel per marketplace). */
  connected: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const systems = useChannelSystems();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t("connections.channels.addTitle")}
      centered
      size="lg"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <QueryBoundary query={systems} minHeight={160}>
        {(list) => {
          const open = list.filter((s) => !connected.includes(s.system));
          return open.length === 0 ? (
            <Text size="sm">{t("connections.channels.allConnected")}</Text>
          ) : (
            <AddChannelForm systems={open} onDone={onClose} />
          );
        }}
      </QueryBoundary>
    </Modal>
  );
}

function AddChannelForm({ systems, onDone }: { systems: ChannelSystemInfo[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [system, setSystem] = useState(systems[0]!.system);
  const chosen = systems.find((s) => s.system === system) ?? systems[0]!;
  const [values, setValues] = useState<Record<string, string>>(() => defaults(chosen));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const test = useTestChannelLogin();
  const add = useAddChannel();

  const reset = () => {
    setErrors({});
    setFormError(null);
    setResult(null);
  };
  const fail = (error: unknown) => {
    const fieldErrors = credentialErrorsOf(error);
    if (fieldErrors) setErrors(fieldErrors);
    else setFormError(errorMessage(error));
  };
  const login = { system: chosen.system, fields: values };
  const onTest = async () => {
    reset();
    try {
      setResult(await test.mutateAsync(login));
    } catch (error) {
      fail(error);
    }
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    reset();
    try {
      const { message, data } = await add.mutateAsync(login);
      if (data.lastTest?.ok) {
        notifications.show({
          closeButtonProps: { "aria-label": t("common.close") },
          color: "green",
          message,
        });
        onDone();
        // Saved, but its test failed: the form stays so the login can be corrected and added again.
      } else setResult(data.lastTest);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("connections.channels.addTitle")}>
      <Stack gap="md">
        <Select
          label={t("connections.channels.system")}
          data={systems.map((s) => ({ value: s.system, label: s.name }))}
          value={chosen.system}
          allowDeselect={false}
          onChange={(v) => {
            const next = systems.find((s) => s.system === v);
            if (!next) return;
            setSystem(next.system);
            setValues(defaults(next));
            reset();
          }}
        />
        {chosen.sandbox && (
          <Text size="xs" c="dimmed">
            {t("connections.channels.sandboxHint")}
          </Text>
        )}
        {chosen.fields.map((f) => (
          <CredentialField
            key={f.name}
            field={f}
            value={values[f.name] ?? ""}
            error={errors[f.name]}
            onChange={(value) => setValues((v) => ({ ...v, [f.name]: value }))}
          />
        ))}
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        {result && <TestResultAlert result={result} testId="channel-test-result" />}
        <Group justify="flex-end">
          <Button
            variant="light"
            onClick={() => void onTest()}
            loading={test.isPending}
            disabled={add.isPending}
          >
            {t("connections.apiKeys.test")}
          </Button>
          <Button type="submit" loading={add.isPending} disabled={test.isPending}>
            {t("connections.channels.addSubmit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function defaults(system: ChannelSystemInfo): Record<string, string> {
  return Object.fromEntries(system.fields.map((f) => [f.name, f.secret ? "" : (f.default ?? "")]));
}
