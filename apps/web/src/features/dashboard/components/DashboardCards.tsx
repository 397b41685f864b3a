import { type DashboardDto, ORDER_AREA_JOB_TYPES } from "@ep/contracts";
import {
  Anchor,
  Badge,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconFileInvoice,
  IconPlugConnected,
  IconPlugConnectedX,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DataTable } from "@/components/table/DataTable";
import { AgentStatusLine } from "@/features/agents/components/AgentStatus";
import { JobIcon } from "@/features/integration/components/JobIcon";
import { ageOf } from "@/features/notifications/age";
import { useMarkAsRead, useNotifications } from "@/features/notifications/api";
import { NotificationItem } from "@/features/notifications/components/NotificationItem";
import { formatDate, formatDateTime, formatDayMonth } from "@/lib/format";
import { type FreshnessView, freshnessBadge, freshnessView, reportCards } from "../freshness";

const areaOf = (jobType: string) =>
  (ORDER_AREA_JOB_TYPES as readonly string[]).includes(jobType) ? "order" : "product";

export const failedTasksPath = (jobType: string) =>
  `/integration/${areaOf(jobType)}/failed-tasks?jobType=${jobType}`;

function CardTitle({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Group justify="space-between" mb="sm" wrap="nowrap">
      <Title order={2} fz="lg" fw={600}>
        {children}
      </Title>
      {action}
    </Group>
  );
}

function CardLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" fw={500}>
      {children}
    </Anchor>
  );
}

/** A dashboard card: title (with an optional link), then its empty text or its content. */
function ListCard(props: {
  testId: string;
  title: string;
  action?: ReactNode;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <Card h="100%" data-testid={props.testId}>
      <CardTitle action={props.action}>{props.title}</CardTitle>
      {props.empty !== null ? (
        <Text size="sm" c="dimmed">
          {props.empty}
        </Text>
      ) : (
        props.children
      )}
    </Card>
  );
}

/**
 * The integration reports of the dashboard response, for the jobs the company has. A job that never
 * ran gets a neutral clock and its Turkish name.
 */
export function IntegrationReports({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const cards = reportCards(data);
  if (cards.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }} spacing="lg">
      {cards.map(({ report: r, state }) => {
        return (
          <Card key={r.jobType} data-testid="integration-report" data-state={state}>
            <Group gap="xs" mb={6} wrap="nowrap">
              {state === "never" ? (
                <IconClockHour4 size={18} color="var(--mantine-color-gray-5)" aria-hidden />
              ) : state === "failed" ? (
                <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" aria-hidden />
              ) : (
                <IconCircleCheck size={18} color="var(--mantine-color-green-6)" aria-hidden />
              )}
              <Text size="xs" c="dimmed">
                {r.last_run_date
                  ? t("dashboard.reports.lastRun", { date: formatDateTime(r.last_run_date) })
                  : t("dashboard.reports.neverRun")}
              </Text>
            </Group>
            <Text size="sm" fw={500}>
              {state === "never"
                ? t("dashboard.reports.never", { job: t(`connections.jobTypes.${r.jobType}`) })
                : r.description}
            </Text>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

/** Connection status per licence, with the link to the API-key settings. */
/** A connection status's colour and label, on both connection cards. */
const STATUS_LOOK = {
  connected: { color: "green", label: "dashboard.connection.connected" },
  failed: { color: "red", label: "dashboard.connection.failed" },
  untested: { color: "gray", label: "dashboard.connection.untested" },
  none: { color: "gray", label: "dashboard.connection.none" },
} as const;

export function ConnectionStatusCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const rows = [
    { key: "erp", status: data.connectionStatuses.erp },
    { key: "eCommerce", status: data.connectionStatuses.eCommerce },
  ] as const;
  return (
    <ListCard
      testId="connection-card"
      title={t("dashboard.connection.title")}
      action={<CardLink to="/settings/api-keys">{t("dashboard.connection.settings")}</CardLink>}
      empty={null}
    >
      <Stack gap="sm">
        {rows.map(({ key, status }) => (
          <Group
            key={key}
            wrap="nowrap"
            align="flex-start"
            data-testid={`connection-${key}`}
            data-state={status.state}
          >
            <ThemeIcon
              color={STATUS_LOOK[status.state].color}
              variant="light"
              size={36}
              radius="md"
              aria-hidden
            >
              {status.state === "connected" ? (
                <IconPlugConnected size={20} />
              ) : (
                <IconPlugConnectedX size={20} />
              )}
            </ThemeIcon>
            <div>
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {t(`dashboard.connection.${key}`)}
                </Text>
                <Badge color={STATUS_LOOK[status.state].color} variant="light" size="sm">
                  {t(STATUS_LOOK[status.state].label)}
                </Badge>
              </Group>
              <Text size="xs" c={status.state === "failed" ? "red" : "dimmed"}>
                {status.message}
              </Text>
              {key === "erp" && data.erpAgentId !== null && (
                <AgentStatusLine agentId={data.erpAgentId} testId="dashboard-agent-status" />
              )}
              {status.state !== "connected" && (
                <Anchor component={Link} to="/settings/api-keys" size="xs" fw={600}>
                  {/* Never set up: there is nothing to fix yet, only to connect. */}
                  {t(status.state === "none" ? "dashboard.connection.connect" : "dashboard.connection.fix")}
                </Anchor>
              )}
            </div>
          </Group>
        ))}
      </Stack>
    </ListCard>
  );
}

/**
 * The e-invoice service: who issues the invoices (the service, the ERP-as-service, or the ERP itself), that
 * connection's status, and the way to the Faturalar screen or to adding a service.
 */
export function EInvoiceServiceCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const { route, system, status } = data.einvoiceService;
  return (
    <ListCard
      testId="einvoice-card"
      title={t("dashboard.einvoiceCard.title")}
      action={<CardLink to="/integration/order/invoices">{t("dashboard.einvoiceCard.invoices")}</CardLink>}
      empty={null}
    >
      <Group wrap="nowrap" align="flex-start" data-route={route}>
        <ThemeIcon
          color={status ? STATUS_LOOK[status.state].color : "gray"}
          variant="light"
          size={36}
          radius="md"
          aria-hidden
        >
          <IconFileInvoice size={20} />
        </ThemeIcon>
        <div>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {t(`dashboard.einvoiceCard.${route}`, { system: system ?? "" })}
            </Text>
            {status && (
              <Badge color={STATUS_LOOK[status.state].color} variant="light" size="sm">
                {t(STATUS_LOOK[status.state].label)}
              </Badge>
            )}
          </Group>
          {status && (
            <Text size="xs" c={status.state === "failed" ? "red" : "dimmed"}>
              {status.message}
            </Text>
          )}
          {(route === "erp" || (status && status.state !== "connected")) && (
            <Anchor component={Link} to="/settings/api-keys#connection-einvoice" size="xs" fw={600}>
              {t(route === "erp" ? "dashboard.einvoiceCard.add" : "dashboard.connection.fix")}
            </Anchor>
          )}
        </div>
      </Group>
    </ListCard>
  );
}

/** Licence expiry dates (DD-MM-YYYY), with the link to the licence page. */
export function LicenceExpiryCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  return (
    <ListCard
      testId="licence-card"
      title={t("dashboard.licencesTitle")}
      action={<CardLink to="/settings/licence">{t("dashboard.allLicences")}</CardLink>}
      empty={data.licences.length === 0 ? t("dashboard.licencesEmpty") : null}
    >
      <Stack gap="xs">
        {data.licences.map((l) => (
          <Group key={l.product_type} justify="space-between" wrap="nowrap">
            <Text size="sm" fw={500}>
              {l.license_name}
            </Text>
            <Text size="sm" data-testid="licence-expiry">
              {formatDate(l.expire_date)}
            </Text>
          </Group>
        ))}
      </Stack>
    </ListCard>
  );
}

/** Open failed tasks per job; each row opens that job type's failed tasks. */
export function FailedJobsCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  return (
    <ListCard
      testId="failed-jobs-card"
      title={t("dashboard.failed.title")}
      empty={data.failedJobReports.length === 0 ? t("dashboard.failed.empty") : null}
    >
      <Stack gap="xs">
        {data.failedJobReports.map((r) => (
          <Group key={r.jobType} justify="space-between" wrap="nowrap">
            <Anchor component={Link} to={failedTasksPath(r.jobType)} size="sm" fw={500}>
              {r.jobName}
            </Anchor>
            <Badge color="red" variant="light">
              {/* The server counts up to a limit and says when there are more. */}
              {t(r.failedOperationCountAtLeast ? "dashboard.failed.countAtLeast" : "dashboard.failed.count", {
                count: r.failedOperationCount,
              })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </ListCard>
  );
}

/** Latest announcements (DD-MM). */
export function AnnouncementsCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  return (
    <ListCard
      testId="announcements-card"
      title={t("dashboard.announcements.title")}
      empty={data.lastAnnouncements.length === 0 ? t("dashboard.announcements.empty") : null}
    >
      <Stack gap="sm">
        {data.lastAnnouncements.map((a) => (
          <Group key={`${a.created_date}-${a.content}`} wrap="nowrap" align="flex-start">
            {/* The badge keeps its width: in a nowrap row it used to shrink to "2…". */}
            <Badge
              variant="light"
              miw={64}
              style={{ flexShrink: 0, overflow: "visible" }}
              data-testid="announcement-date"
            >
              {formatDayMonth(a.created_date)}
            </Badge>
            <div>
              <Text size="xs" c="dimmed" fw={600}>
                {a.type}
              </Text>
              <Text size="sm">{a.content}</Text>
            </div>
          </Group>
        ))}
      </Stack>
    </ListCard>
  );
}

/** The company jobs widget: how many jobs are active, passive and failing, and what runs next. */
export function CompanyJobsWidget({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const jobs = data.companyJobs;
  const active = jobs.filter((j) => j.is_enabled).length;
  const failing = jobs.filter((j) => j.is_enabled && j.last_Run_State === false).length;
  const next = jobs
    .filter((j) => j.next_run_date)
    .sort((a, b) => (a.next_run_date ?? "").localeCompare(b.next_run_date ?? ""))[0];
  const stats = [
    // Green at shade 7 is 2.9:1 on white, under WCAG's 3:1 for large text: shade 9.
    { label: t("dashboard.companyJobs.active"), value: active, color: "green.9" },
    { label: t("dashboard.companyJobs.passive"), value: jobs.length - active, color: "gray.7" },
    { label: t("dashboard.companyJobs.failing"), value: failing, color: "red.7" },
  ];
  return (
    <Card h="100%" data-testid="company-jobs-widget">
      <CardTitle>{t("dashboard.companyJobs.title")}</CardTitle>
      <SimpleGrid cols={3} spacing="xs" mb="sm">
        {stats.map((s) => (
          <div key={s.label}>
            <Text fz={22} fw={700} c={s.color}>
              {s.value}
            </Text>
            <Text size="xs" c="dimmed">
              {s.label}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {next && (
        <Text size="sm">
          {t("dashboard.companyJobs.next", { job: next.name, date: formatDateTime(next.next_run_date) })}
        </Text>
      )}
    </Card>
  );
}

/** The task notifications widget: the latest notifications the runs raised. */
export function TaskNotificationsWidget() {
  const { t } = useTranslation();
  const list = useNotifications(1, 5);
  const markRead = useMarkAsRead();
  const items = list.data?.dataList ?? [];
  return (
    <Card h="100%" data-testid="task-notifications-widget">
      <CardTitle
        action={
          <Anchor component={Link} to="/notifications" size="sm" fw={500}>
            {t("dashboard.taskNotifications.all")}
          </Anchor>
        }
      >
        {t("dashboard.taskNotifications.title")}
      </CardTitle>
      {list.isPending ? (
        <Text size="sm" c="dimmed">
          {t("dashboard.loading")}
        </Text>
      ) : list.isError ? (
        <Text size="sm" c="dimmed" role="alert">
          {t("dashboard.loadFailed")}
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("dashboard.taskNotifications.empty")}
        </Text>
      ) : (
        <Stack gap={2}>
          {items.map((n) => (
            <NotificationItem key={n.id} item={n} onRead={(id) => markRead.mutate(id)} />
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** The last success's age as a small bar against the flow's goal (two of its intervals). */
function FreshnessBar({ view, jobType }: { view: FreshnessView; jobType: string }) {
  const { t } = useTranslation();
  const goal = view.goalMinutes;
  const goalText =
    goal % 60 === 0
      ? t("dashboard.freshness.goalHours", { count: goal / 60 })
      : t("dashboard.freshness.goalMinutes", { count: goal });
  return (
    <Group gap={6} wrap="nowrap" mt={4} data-testid={`freshness-bar-${jobType}`} data-level={view.state}>
      <Progress
        value={view.percent ?? 0}
        color={view.color}
        size="sm"
        w={96}
        aria-label={t("dashboard.freshness.goalLabel", { goal: goalText })}
      />
      <Text size="xs" c="dimmed">
        {goalText}
      </Text>
    </Group>
  );
}

/** How far the shop is behind the ERP now: time since each job's last success and items waiting. */
export function FreshnessCard({ data }: { data: DashboardDto }) {
  const { t } = useTranslation();
  const now = Date.now();
  return (
    <Card h="100%" data-testid="freshness-card">
      <CardTitle>{t("dashboard.freshness.title")}</CardTitle>
      <Text size="xs" c="dimmed" mb="sm">
        {t("dashboard.freshness.hint")}
      </Text>
      {data.freshness.length === 0 ? (
        // No jobs yet: a sentence, not a table of headers with nothing under them.
        <Text size="sm" c="dimmed" data-testid="freshness-empty">
          {t("dashboard.freshness.empty")}
        </Text>
      ) : (
        <DataTable
          verticalSpacing="xs"
          columns={[
            t("dashboard.jobs.name"),
            t("dashboard.freshness.lastSuccess"),
            { label: t("dashboard.freshness.waiting"), align: "right" },
          ]}
        >
          {data.freshness.map((f) => {
            const job = data.companyJobs.find((j) => j.id === f.jobId);
            // Badge, bar and text come from this one state, so they cannot disagree.
            const view = freshnessView(f, job?.schedule, now);
            const age = f.last_success_date ? ageOf(f.last_success_date) : null;
            const badge = freshnessBadge(view);
            return (
              <Table.Tr key={f.jobId} data-testid="freshness-row" data-state={view.state}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {job && <JobIcon job={job} />}
                    <Text size="sm">{f.name}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <IconClockHour4 size={14} aria-hidden />
                    <Text size="sm">
                      {view.state === "passive"
                        ? t("dashboard.jobs.passive")
                        : view.state === "first"
                          ? t("dashboard.freshness.first")
                          : view.state === "never" || !age
                            ? t("dashboard.freshness.never")
                            : t(`notifications.age.${age.unit}`, { count: age.count })}
                    </Text>
                  </Group>
                  {view.percent !== null && <FreshnessBar view={view} jobType={f.jobType} />}
                </Table.Td>
                <Table.Td ta="right">
                  <Badge color={view.color} variant="light" data-testid="freshness-badge">
                    {t(`dashboard.freshness.${badge.key}` as "dashboard.freshness.upToDate", {
                      count: badge.count,
                    })}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </DataTable>
      )}
    </Card>
  );
}
