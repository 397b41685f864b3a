import type { ChannelDto } from "@ep/contracts";
import {
  Alert,
  Button,
  Fieldset,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "@/i18n";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { type ChannelSettingsForm, settingsForm, settingsOf, useSaveChannelSettings } from "../channels-api";

/** The form's typed fields (the invoicing switch is not text). */
type TextField = Exclude<keyof ChannelSettingsForm, "invoices">;

/** Where a field error of the settings PUT (`safety.units`, `priceRule.minimum`…) shows on the form. */
const FIELD_OF: Record<string, keyof ChannelSettingsForm> = {
  units: "safety",
  percent: "safety",
  weight: "weight",
  markupPercent: "markupPercent",
  rounding: "rounding",
  minimum: "minimum",
  orderPrefix: "orderPrefix",
  orderSeries: "orderSeries",
};

/**
 * A channel's settings: its safety stock (units or % of the pool), its share weight, its price rule
 * (markup, rounding to ,90 / ,99, a minimum), how its orders are named in the ERP and whether they are invoiced.
 */
export function ChannelSettingsModal({
  channel,
  opened,
  onClose,
}: {
  channel: ChannelDto;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t("connections.channels.settingsTitle", { name: channel.name })}
      centered
      size="lg"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <SettingsFormBody channel={channel} onDone={onClose} />
    </Modal>
  );
}

function SettingsFormBody({ channel, onDone }: { channel: ChannelDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState(() => settingsForm(channel.settings));
  const [errors, setErrors] = useState<Partial<Record<keyof ChannelSettingsForm, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const save = useSaveChannelSettings();
  const set = (key: TextField) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [key]: value }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    try {
      const { message } = await save.mutateAsync({
        id: channel.id,
        settings: settingsOf(form, channel.settings),
      });
      notifications.show({
        closeButtonProps: { "aria-label": t("common.close") },
        color: "green",
        message,
      });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        const next: typeof errors = {};
        for (const e of error.fieldErrors) {
          const key = FIELD_OF[e.field.split(".").pop() ?? ""];
          if (key) next[key] = translateMessage(e.message);
          else setFormError(translateMessage(e.message));
        }
        setErrors(next);
      } else setFormError(errorMessage(error));
    }
  };

  const decimal = (key: TextField, label: string, description?: string) => (
    <TextInput
      label={label}
      description={description}
      inputMode="decimal"
      value={form[key]}
      error={errors[key]}
      onChange={set(key)}
    />
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={t("connections.channels.settingsTitle", { name: channel.name })}
    >
      <Stack gap="md">
        <Fieldset legend={t("connections.channels.stockLegend")}>
          <Stack gap="sm">
            <SegmentedControl
              aria-label={t("connections.channels.safetyMode")}
              value={form.safetyMode}
              onChange={(v) => setForm((f) => ({ ...f, safetyMode: v as ChannelSettingsForm["safetyMode"] }))}
              data={[
                { value: "none", label: t("connections.channels.safetyNone") },
                { value: "units", label: t("connections.channels.safetyUnits") },
                { value: "percent", label: t("connections.channels.safetyPercent") },
              ]}
            />
            {form.safetyMode !== "none" &&
              decimal(
                "safety",
                t(
                  form.safetyMode === "units"
                    ? "connections.channels.safetyUnitsLabel"
                    : "connections.channels.safetyPercentLabel",
                ),
                t("connections.channels.safetyHelp"),
              )}
            {decimal("weight", t("connections.channels.weight"), t("connections.channels.weightHelp"))}
          </Stack>
        </Fieldset>
        <Fieldset legend={t("connections.channels.priceLegend")}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {decimal("markupPercent", t("connections.channels.markup"))}
              {decimal("minimum", t("connections.channels.minimum"))}
            </SimpleGrid>
            <Stack gap={4}>
              <Text size="sm" fw={500} id={`rounding-${channel.id}`}>
                {t("connections.channels.rounding")}
              </Text>
              <SegmentedControl
                aria-labelledby={`rounding-${channel.id}`}
                value={form.rounding}
                onChange={(v) => setForm((f) => ({ ...f, rounding: v as ChannelSettingsForm["rounding"] }))}
                data={[
                  { value: "none", label: t("connections.channels.roundingNone") },
                  { value: "90", label: ",90" },
                  { value: "99", label: ",99" },
                ]}
              />
            </Stack>
            <Text size="xs" c="dimmed">
              {t("connections.channels.priceHelp")}
            </Text>
          </Stack>
        </Fieldset>
        <Fieldset legend={t("connections.channels.ordersLegend")}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={t("connections.channels.orderPrefix")}
                description={t("connections.channels.orderPrefixHelp")}
                value={form.orderPrefix}
                error={errors.orderPrefix}
                onChange={set("orderPrefix")}
                maxLength={8}
              />
              <TextInput
                label={t("connections.channels.orderSeries")}
                description={t("connections.channels.orderSeriesHelp")}
                value={form.orderSeries}
                error={errors.orderSeries}
                onChange={set("orderSeries")}
                maxLength={20}
              />
            </SimpleGrid>
            <Switch
              label={t("connections.channels.invoices")}
              description={t("connections.channels.invoicesHelp")}
              checked={form.invoices}
              onChange={(e) => {
                const invoices = e.currentTarget.checked;
                setForm((f) => ({ ...f, invoices }));
              }}
            />
          </Stack>
        </Fieldset>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
