import type { JobErrorReportDto } from "@ep/contracts";
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Pagination,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconRefresh, IconSearch, IconTrash } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ConfirmDialog } from "@/components/feedback/ConfirmDialog";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { ResponsiveTable } from "@/components/table/ResponsiveTable";
import { paginationControlProps } from "@/components/table/ServerPagination";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatNumber } from "@/lib/format";
import { AREA_JOB_TYPES, type Area, useDeleteErrors, useJobErrors, useJobs, useRetryErrors } from "../api";
import { ErrorDetailModal } from "../components/ErrorDetailModal";
import { ErrorTypeBadge, useErrorTypeLabel } from "../components/ErrorTypeBadge";

const PAGE_SIZE = 20;
/** Grouping by cause looks at a larger page so a group gathers more of its tasks. */
const GROUPED_PAGE_SIZE = 100;

type CauseGroup = { cause: string; errorType: string; message: string; items: JobErrorReportDto[] };

function groupByCause(items: JobErrorReportDto[]): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  for (const item of items) {
    const cause = `${item.errorType}\u0000${item.message}`;
    const group = groups.get(cause) ?? { cause, errorType: item.errorType, message: item.message, items: [] };
    group.items.push(item);
    groups.set(cause, group);
  }
  return [...groups.values()].sort((a, b) => b.items.length - a.items.length);
}

/** /integration/{product|order}/failed-tasks?jobType=…: filter, read, select, delete and retry failed tasks. */
export default function FailedTasksPage({ area }: { area: Area }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const types = AREA_JOB_TYPES[area];
  const jobType = types.includes(params.get("jobType") ?? "") ? (params.get("jobType") as string) : types[0]!;
  const jobs = useJobs(area);
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<string | null>("Open");
  const [errorType, setErrorType] = useState<string | null>(null);
  const [grouped, setGrouped] = useState(false);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [detail, setDetail] = useState<JobErrorReportDto | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const size = grouped ? GROUPED_PAGE_SIZE : PAGE_SIZE;
  const filter = {
    jobType,
    searchText: debounced || undefined,
    status: status ?? undefined,
    errorType: errorType ?? undefined,
  };
  const errors = useJobErrors(filter, page, size);
  const typeLabel = useErrorTypeLabel();
  const del = useDeleteErrors();
  const retry = useRetryErrors();

  const resetPaging = () => {
    setPage(1);
    setSelected(new Set());
  };
  const items = errors.data?.dataList ?? [];
  const errorTypes = useMemo(
    () => [...new Set([...items.map((i) => i.errorType), ...(errorType ? [errorType] : [])])].sort(),
    [items, errorType],
  );
  const toggle = (ids: number[], on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  const selectedIds = [...selected];
  const actionError = del.error ?? retry.error;

  const row = (item: JobErrorReportDto) => (
    <Table.Tr key={item.id} data-testid="failed-task-row">
      <Table.Td>
        <Checkbox
          checked={selected.has(item.id)}
          onChange={(e) => toggle([item.id], e.currentTarget.checked)}
          aria-label={t("integration.failedTasks.select", { key: item.entityKey })}
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {item.entityKey}
        </Text>
      </Table.Td>
      <Table.Td>
        <ErrorTypeBadge code={item.errorType} />
      </Table.Td>
      <Table.Td maw={360}>
        {/* Two lines at most (Detay shows it all); a long code breaks instead of running out. */}
        <Text size="sm" lineClamp={2} title={item.message} style={{ overflowWrap: "anywhere" }}>
          {item.message}
        </Text>
      </Table.Td>
      <Table.Td>{formatNumber(item.occurrences)}</Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(item.last_seen_date)}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={item.status === "Open" ? "orange" : "green"}>
          {t(`integration.failedTasks.status${item.status}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="light" onClick={() => setDetail(item)}>
          {t("integration.failedTasks.detail")}
        </Button>
      </Table.Td>
    </Table.Tr>
  );

  const head = (list: JobErrorReportDto[]) => {
    const all = list.length > 0 && list.every((i) => selected.has(i.id));
    return (
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={40}>
            <Checkbox
              checked={all}
              indeterminate={!all && list.some((i) => selected.has(i.id))}
              onChange={(e) =>
                toggle(
                  list.map((i) => i.id),
                  e.currentTarget.checked,
                )
              }
              aria-label={t("integration.failedTasks.selectAll")}
            />
          </Table.Th>
          <Table.Th>{t("integration.failedTasks.record")}</Table.Th>
          <Table.Th>{t("integration.failedTasks.errorType")}</Table.Th>
          <Table.Th>{t("integration.failedTasks.message")}</Table.Th>
          <Table.Th>{t("integration.failedTasks.occurrences")}</Table.Th>
          <Table.Th>{t("integration.failedTasks.lastSeen")}</Table.Th>
          <Table.Th>{t("integration.failedTasks.status")}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
    );
  };

  return (
    <>
      <PageHeader
        title={t("integration.failedTasks.title")}
        breadcrumbs={[{ label: t(`integration.menu.${area}`), to: `/integration/${area}` }]}
      />
      <Card>
        <Stack>
          <Group align="flex-end" wrap="wrap">
            <Select
              label={t("integration.failedTasks.jobType")}
              data={types.map((type) => ({
                value: type,
                label: jobs.data?.find((j) => j.type === type)?.name ?? type,
              }))}
              value={jobType}
              onChange={(v) => {
                if (v) setParams({ jobType: v });
                setErrorType(null);
                resetPaging();
              }}
              allowDeselect={false}
              w={220}
            />
            <TextInput
              label={t("integration.failedTasks.search")}
              leftSection={<IconSearch size={14} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                resetPaging();
              }}
              w={240}
            />
            <Select
              label={t("integration.failedTasks.status")}
              data={[
                { value: "Open", label: t("integration.failedTasks.statusOpen") },
                { value: "Resolved", label: t("integration.failedTasks.statusResolved") },
              ]}
              value={status}
              onChange={(v) => {
                setStatus(v);
                resetPaging();
              }}
              placeholder={t("integration.failedTasks.all")}
              clearable
              w={170}
            />
            <Select
              label={t("integration.failedTasks.errorType")}
              data={errorTypes.map((code) => ({ value: code, label: typeLabel(code) }))}
              value={errorType}
              onChange={(v) => {
                setErrorType(v);
                resetPaging();
              }}
              placeholder={t("integration.failedTasks.all")}
              clearable
              w={200}
            />
            <Switch
              label={t("integration.failedTasks.groupByCause")}
              checked={grouped}
              onChange={(e) => {
                setGrouped(e.currentTarget.checked);
                resetPaging();
              }}
              mb={8}
            />
          </Group>
          <Group gap="sm">
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              disabled={selectedIds.length === 0}
              onClick={() => setConfirmDelete(true)}
            >
              {t("integration.failedTasks.delete", { count: selectedIds.length })}
            </Button>
            <Button
              variant="light"
              leftSection={<IconRefresh size={16} />}
              disabled={selectedIds.length === 0}
              loading={retry.isPending}
              onClick={() =>
                retry.mutate(selectedIds, {
                  onSuccess: (r) => {
                    setSelected(new Set());
                    setNotice(
                      r.alreadyRunning.length > 0
                        ? t("integration.failedTasks.retryBusy")
                        : t("integration.failedTasks.retryQueued"),
                    );
                  },
                })
              }
            >
              {t("integration.failedTasks.retry", { count: selectedIds.length })}
            </Button>
          </Group>
          {notice && (
            <Alert
              color="blue"
              withCloseButton
              closeButtonLabel={t("common.close")}
              onClose={() => setNotice(null)}
              data-testid="failed-tasks-notice"
            >
              {notice}
            </Alert>
          )}
          {actionError && (
            <Text size="sm" c="red" role="alert">
              {errorMessage(actionError)}
            </Text>
          )}
          <QueryBoundary
            query={errors}
            isEmpty={(d) => d.dataList.length === 0}
            emptyMessage={t("integration.failedTasks.empty")}
          >
            {(data) => (
              <Stack gap="sm">
                {grouped ? (
                  groupByCause(data.dataList).map((g) => (
                    <Card key={g.cause} withBorder data-testid="failed-task-group">
                      <Group justify="space-between" mb="xs" wrap="nowrap">
                        <div>
                          <Box component="span" mr="xs">
                            <ErrorTypeBadge code={g.errorType} />
                          </Box>
                          <Text span size="sm" fw={500}>
                            {g.message}
                          </Text>
                        </div>
                        <Group gap="xs" wrap="nowrap">
                          <Badge variant="outline">
                            {t("integration.failedTasks.groupCount", { count: g.items.length })}
                          </Badge>
                          <Button
                            size="compact-xs"
                            variant="light"
                            onClick={() =>
                              toggle(
                                g.items.map((i) => i.id),
                                true,
                              )
                            }
                          >
                            {t("integration.failedTasks.selectGroup")}
                          </Button>
                        </Group>
                      </Group>
                      <ResponsiveTable minWidth={760} verticalSpacing="xs">
                        {head(g.items)}
                        <Table.Tbody>{g.items.map(row)}</Table.Tbody>
                      </ResponsiveTable>
                    </Card>
                  ))
                ) : (
                  <ResponsiveTable minWidth={760} striped verticalSpacing="xs">
                    {head(data.dataList)}
                    <Table.Tbody>{data.dataList.map(row)}</Table.Tbody>
                  </ResponsiveTable>
                )}
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    {t("integration.failedTasks.total", { count: data.totalCount })}
                  </Text>
                  {data.totalCount > size && (
                    <Pagination
                      getControlProps={paginationControlProps(t)}
                      total={Math.ceil(data.totalCount / size)}
                      value={page}
                      onChange={(p) => {
                        setPage(p);
                        setSelected(new Set());
                      }}
                      size="sm"
                    />
                  )}
                </Group>
              </Stack>
            )}
          </QueryBoundary>
        </Stack>
      </Card>
      {detail && <ErrorDetailModal item={detail} onClose={() => setDetail(null)} />}
      <ConfirmDialog
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t("integration.failedTasks.confirmTitle")}
        message={t("integration.failedTasks.confirmText", { count: selectedIds.length })}
        cancelLabel={t("integration.cancel")}
        confirmLabel={t("integration.failedTasks.confirmDelete")}
        loading={del.isPending}
        onConfirm={() =>
          del.mutate(selectedIds, {
            onSuccess: (r) => {
              setSelected(new Set());
              setConfirmDelete(false);
              setNotice(t("integration.failedTasks.deleted", { count: r.deleted }));
            },
          })
        }
      />
    </>
  );
}
