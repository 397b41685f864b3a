import { Alert, Button, Card, Group, NumberInput, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "@/components/form/DateField";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format";
import { useDeleteExchangeRate, useExchangeRates, useSaveExchangeRate } from "../api";

/**
 * Döviz Kurları: the merchant's dated rates (TRY per unit) that foreign-currency orders without a rate of
 * their own are invoiced at, and the orders waiting for one. The server never guesses a rate.
 */
export function ExchangeRatesCard() {
  const { t } = useTranslation("shared");
  const rates = useExchangeRates();
  const save = useSaveExchangeRate();
  const remove = useDeleteExchangeRate();
  const waiting = rates.data?.waiting ?? [];
  const [currency, setCurrency] = useState(waiting[0]?.currency ?? "USD");
  const [date, setDate] = useState(dayjs().format("YYYY-MM-DD"));
  const [rate, setRate] = useState<number | string>("");
  const [error, setError] = useState<string | null>(null);

  const onSave = () => {
    setError(null);
    save.mutate(
      { currency, date, rate: Number(rate) },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: t("einvoices.rateSaved") });
          setRate("");
        },
        onError: (e) =>
          setError(
            e instanceof ApiError && e.fieldErrors.length > 0
              ? e.fieldErrors.map((f) => f.message).join(" ")
              : errorMessage(e),
          ),
      },
    );
  };

  return (
    <Card data-testid="exchange-rates">
      <Title order={2} fz="lg" fw={600} mb={4}>
        {t("einvoices.ratesTitle")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("einvoices.ratesHint")}
      </Text>
      <Stack gap="sm">
        {waiting.map((w) => (
          <Alert key={w.currency} color="orange" variant="light" data-testid="rate-waiting">
            {t("einvoices.waitingRateAlert", { currency: w.currency, orders: w.orders })}
          </Alert>
        ))}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t("einvoices.rateCurrency")}
            value={currency}
            maxLength={3}
            w={110}
            onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
            data-testid="rate-currency"
          />
          <DateField
            label={t("einvoices.rateDate")}
            value={date}
            clearable={false}
            onChange={(d) => d && setDate(d)}
            data-testid="rate-date"
          />
          <NumberInput
            label={t("einvoices.rateValue")}
            value={rate}
            onChange={setRate}
            decimalScale={6}
            decimalSeparator=","
            min={0}
            hideControls
            w={170}
            data-testid="rate-value"
          />
          <Button onClick={onSave} loading={save.isPending} disabled={rate === ""} data-testid="rate-save">
            {t("einvoices.rateAdd")}
          </Button>
        </Group>
        {(rates.data?.rates.length ?? 0) === 0 ? (
          <Text size="sm" c="dimmed">
            {t("einvoices.ratesEmpty")}
          </Text>
        ) : (
          <ResponsiveTable verticalSpacing={4} data-testid="rate-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("einvoices.rateCurrency")}</Table.Th>
                <Table.Th>{t("einvoices.rateDate")}</Table.Th>
                <Table.Th ta="right">{t("einvoices.rateValue")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rates.data?.rates.map((r) => (
                <Table.Tr key={`${r.currency}-${r.date}`} data-testid="rate-row">
                  <Table.Td>{r.currency}</Table.Td>
                  <Table.Td>{formatDate(r.date)}</Table.Td>
                  <Table.Td ta="right">
                    {r.rate.toLocaleString("tr-TR", { maximumFractionDigits: 6 })}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending}
                      onClick={() => remove.mutate({ currency: r.currency, date: r.date })}
                    >
                      {t("einvoices.rateDelete")}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
      </Stack>
    </Card>
  );
}
