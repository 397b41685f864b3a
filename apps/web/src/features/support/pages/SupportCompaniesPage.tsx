import type { SupportCompany } from "@ep/contracts";
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { DateField } from "@/components/form/DateField";
import { RunStatusBadge } from "@/features/integration/components/RunStatusBadge";
import { translateMessage } from "@/i18n";
import { errorMessage } from "@/lib/errors";
import { formatDate, formatDateTime } from "@/lib/format";
import { useSupportCompanies, useUpdateLicense } from "../api";

type License = SupportCompany["licenses"][number];

/** /support/companies — each company's connections, last runs, failed tasks, tickets and licences. */
export default function SupportCompaniesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [searchKey] = useDebouncedValue(search.trim(), 300);
  const companies = useSupportCompanies(searchKey);
  const [editing, setEditing] = useState<License | null>(null);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz={20}>
          {t("support.companies.title")}
        </Title>
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t("support.companies.searchPlaceholder")}
          aria-label={t("support.companies.searchPlaceholder")}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      </Group>
      <QueryBoundary
        query={companies}
        isEmpty={(d) => d.length === 0}
        emptyMessage={t("support.companies.empty")}
      >
        {(data) => (
          <Stack gap="md">
            {data.map((company) => (
              <CompanyCard key={company.id} company={company} onEdit={setEditing} />
            ))}
          </Stack>
        )}
      </QueryBoundary>
      <LicenseModal license={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}

function CompanyCard({ company, onEdit }: { company: SupportCompany; onEdit: (l: License) => void }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" p="lg" data-testid="support-company">
      <Group justify="space-between" mb="sm">
        <div>
          <Text fw={700}>{company.name}</Text>
          <Text size="xs" c="dimmed">
            {t("support.companies.user")}: {company.userEmail ?? "-"} · {formatDate(company.created_Date)}
          </Text>
        </div>
        <Group gap="xs">
          <Badge color={company.failedTaskCount > 0 ? "red" : "gray"} variant="light">
            {t("support.companies.failedTasks", { count: company.failedTaskCount })}
          </Badge>
          <Badge color={company.openTicketCount > 0 ? "blue" : "gray"} variant="light">
            {t("support.companies.openTickets", { count: company.openTicketCount })}
          </Badge>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {t("support.companies.connections")}
          </Text>
          {company.connections.length === 0 && (
            <Text size="sm" c="dimmed">
              {t("support.companies.noConnections")}
            </Text>
          )}
          {company.connections.map((c) => (
            <Group key={c.kind} gap="xs" wrap="nowrap">
              <Text size="sm" w={80}>
                {c.kind === "erp" ? t("support.companies.erp") : t("support.companies.shop")}
              </Text>
              <Badge
                size="sm"
                variant="light"
                color={c.lastTestOk === null ? "gray" : c.lastTestOk ? "green" : "red"}
                title={c.lastTestMessage ?? undefined}
              >
                {c.lastTestOk === null
                  ? t("support.companies.connectionUntested")
                  : c.lastTestOk
                    ? t("support.companies.connectionOk")
                    : t("support.companies.connectionFailed")}
              </Badge>
              <Text size="xs" c="dimmed">
                {c.lastTest_Date ? formatDateTime(c.lastTest_Date) : ""}
              </Text>
            </Group>
          ))}
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {t("support.companies.lastRuns")}
          </Text>
          {company.lastRuns.length === 0 && (
            <Text size="sm" c="dimmed">
              {t("support.companies.noRuns")}
            </Text>
          )}
          {company.lastRuns.map((r) => (
            <Group key={r.id} gap="xs" wrap="nowrap">
              <RunStatusBadge status={r.status} />
              <Text size="sm" lineClamp={1}>
                {r.jobName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(r.queued_Date)}
              </Text>
            </Group>
          ))}
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {t("support.companies.licenses")}
          </Text>
          {company.licenses.map((l) => (
            <Group key={l.id} gap="xs" justify="space-between" wrap="nowrap">
              <div>
                <Text size="sm">
                  {l.name} {l.isTrial && <Badge size="xs">{t("support.companies.trial")}</Badge>}
                </Text>
                <Text size="xs" c="dimmed">
                  {t("support.companies.expires", { date: formatDate(l.expire_date) })}
                </Text>
              </div>
              <Button size="compact-xs" variant="light" onClick={() => onEdit(l)}>
                {t("support.companies.extend")}
              </Button>
            </Group>
          ))}
        </Stack>
      </SimpleGrid>
    </Card>
  );
}

function LicenseModal({ license, onClose }: { license: License | null; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateLicense();
  const [days, setDays] = useState<number | string>(30);
  const [date, setDate] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (!license) return;
    setError(null);
    try {
      const extendDays = Number(days) > 0 && !date ? Number(days) : undefined;
      const expiresAt = date ? new Date(`${date}T23:59:59`).toISOString() : undefined;
      await update.mutateAsync({ id: license.id, extendDays, expiresAt });
      notifications.show({ color: "green", message: translateMessage("tickets.licenseUpdated") });
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Modal
      opened={license !== null}
      onClose={onClose}
      title={license ? t("support.companies.extendTitle", { name: license.name }) : ""}
      centered
    >
      <Stack gap="sm">
        {error && <Alert color="red">{error}</Alert>}
        {license && (
          <Text size="sm" c="dimmed">
            {t("support.companies.expires", { date: formatDate(license.expire_date) })}
          </Text>
        )}
        <NumberInput
          label={t("support.companies.extendDays")}
          min={1}
          max={3650}
          value={days}
          onChange={setDays}
        />
        <DateField
          label={t("support.companies.orSetDate")}
          value={date || null}
          onChange={(d) => setDate(d ?? "")}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t("support.companies.cancel")}
          </Button>
          <Button onClick={save} loading={update.isPending}>
            {t("support.companies.save")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
