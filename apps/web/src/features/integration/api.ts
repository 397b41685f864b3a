import {
  type ChannelDto,
  type JobDto,
  type JobErrorReportDto,
  type JobHistoryDto,
  type JobHistoryReportDto,
  type JobScheduleDto,
  ORDER_AREA_JOB_TYPES,
  type PagedList,
  PRODUCT_AREA_JOB_TYPES,
  type RunEventDto,
} from "@ep/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "@/lib/api-client";

export type Area = "product" | "order";
export const AREA_JOB_TYPES: Record<Area, readonly string[]> = {
  product: PRODUCT_AREA_JOB_TYPES,
  order: ORDER_AREA_JOB_TYPES,
};
const FINISHED = new Set(["Succeeded", "PartiallyFailed", "Failed", "Crashed"]);
export const isFinished = (status: string) => FINISHED.has(status);

/**
 * Which channel's jobs a screen shows (issue 37): every channel (undefined, the total), the shop, or a
 * marketplace channel's connection id. A company without channels never sees the selector.
 */
export type ChannelChoice = undefined | "shop" | number;

/** The company's marketplace channels, for the channel selector of the job screens and the dashboard. */
export function useChannels() {
  return useQuery({
    queryKey: ["channels"],
    queryFn: ({ signal }) => api.get<ChannelDto[]>("/api/channels", { signal }),
    staleTime: 60_000,
  });
}

/** Whether a job belongs to the chosen channel. */
export const inChannel = (job: { channel_id?: number | null }, channel: ChannelChoice) =>
  channel === undefined ||
  (channel === "shop" ? (job.channel_id ?? null) === null : job.channel_id === channel);

export const integrationKeys = {
  jobs: (area: Area) => ["jobs", area] as const,
  history: ["job-history"] as const,
  errors: ["job-errors"] as const,
};

export function useJobs(area: Area) {
  return useQuery({
    queryKey: integrationKeys.jobs(area),
    queryFn: ({ signal }) =>
      api.get<JobDto[]>(`/api/Job/type-filter/${AREA_JOB_TYPES[area].join(",")}`, { signal }),
    // A safety net beside the long poll: while a run is active, look again every few seconds.
    refetchInterval: (query) => (query.state.data?.some((j) => j.active_run) ? 3_000 : false),
  });
}

function useInvalidateJobs() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ["jobs"] });
    void client.invalidateQueries({ queryKey: ["dashboard"] });
  };
}

export function useUpdateJob() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (body: { id: number; is_enabled?: boolean; schedule?: JobScheduleDto }) =>
      api.put<JobDto>("/api/job", body),
    onSuccess: invalidate,
  });
}

export function useRunJob() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (jobId: number) =>
      api.post<{ runId: number }>("/api/Job/run-job", undefined, { query: { jobId } }),
    onSuccess: invalidate,
  });
}

/**
 * Live progress: keeps one long poll open for the area's job types. Moving counts are written into
 * the jobs list at once; a run that ends refreshes the jobs and the history.
 */
export function useRunEvents(area: Area, onFinished?: (event: RunEventDto) => void) {
  const client = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    let stopped = false;
    const types = AREA_JOB_TYPES[area].join(",");
    (async () => {
      while (!stopped) {
        try {
          const { events } = await api.get<{ events: RunEventDto[] }>("/api/JobHistory/do-long-polling", {
            signal: controller.signal,
            query: { jobTypes: types, channelName: `integration-${area}` },
          });
          client.setQueryData<JobDto[]>(integrationKeys.jobs(area), (jobs) =>
            jobs?.map((job) => {
              const event = [...events].reverse().find((e) => e.jobId === job.id);
              if (!event || isFinished(event.status) || !job.active_run) return job;
              return {
                ...job,
                active_run: {
                  ...job.active_run,
                  status: event.status as NonNullable<JobDto["active_run"]>["status"],
                  counts: event.counts ?? job.active_run.counts,
                },
              };
            }),
          );
          if (events.some((e) => !jobShowsActiveRun(client, area, e)))
            void client.invalidateQueries({ queryKey: ["jobs"] });
          const ended = events.filter((e) => isFinished(e.status));
          if (ended.length > 0) {
            void client.invalidateQueries({ queryKey: ["jobs"] });
            void client.invalidateQueries({ queryKey: integrationKeys.history });
            void client.invalidateQueries({ queryKey: ["dashboard"] });
            void client.invalidateQueries({ queryKey: ["notifications"] });
            for (const e of ended) onFinished?.(e);
          }
        } catch {
          if (controller.signal.aborted) return;
          await new Promise((r) => setTimeout(r, 3_000));
        }
      }
    })();
    return () => {
      stopped = true;
      controller.abort();
    };
  }, [area, client, onFinished]);
}

/** True when the event's job is shown with an active run (otherwise the list must be reloaded). */
function jobShowsActiveRun(client: ReturnType<typeof useQueryClient>, area: Area, e: RunEventDto): boolean {
  const jobs = client.getQueryData<JobDto[]>(integrationKeys.jobs(area));
  return Boolean(jobs?.find((j) => j.id === e.jobId)?.active_run);
}

export type HistoryFilter = {
  jobTypes: string[];
  startDate?: string;
  endDate?: string;
  channel?: ChannelChoice;
};

export function useJobHistory(filter: HistoryFilter, page: number, size: number) {
  return useQuery({
    queryKey: [...integrationKeys.history, filter, page, size],
    queryFn: ({ signal }) =>
      api.get<PagedList<JobHistoryDto>>("/api/JobHistory", {
        signal,
        query: {
          jobTypes: filter.jobTypes.join(","),
          channel: filter.channel,
          startDate: filter.startDate,
          endDate: filter.endDate,
          pageNumber: page,
          pageSize: size,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** One run's report; `untilFinished` looks again every second while the run has not ended. */
export function useRunReport(id: number | null, untilFinished = false) {
  return useQuery({
    queryKey: ["job-report", id],
    queryFn: ({ signal }) => api.get<JobHistoryReportDto>(`/api/JobHistory/report/${id}`, { signal }),
    enabled: id !== null,
    refetchInterval: (query) =>
      untilFinished && query.state.data && !isFinished(query.state.data.status) ? 1_000 : false,
  });
}

export type ErrorFilter = { jobType: string; searchText?: string; status?: string; errorType?: string };

export function useJobErrors(filter: ErrorFilter, page: number, size: number) {
  return useQuery({
    queryKey: [...integrationKeys.errors, filter, page, size],
    queryFn: ({ signal }) =>
      api.get<PagedList<JobErrorReportDto>>(`/api/JobErrorReport/${page}/${size}/${filter.jobType}`, {
        signal,
        query: {
          searchText: filter.searchText || undefined,
          status: filter.status,
          errorType: filter.errorType,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

function useErrorAction<T>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<T>(path, { jobErrorIdList: ids }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: integrationKeys.errors });
      void client.invalidateQueries({ queryKey: ["jobs"] });
      void client.invalidateQueries({ queryKey: ["dashboard"] });
    },
  });
}

export const useDeleteErrors = () => useErrorAction<{ deleted: number }>("/api/JobErrorReport/delete");
export const useRetryErrors = () =>
  useErrorAction<{ runIds: number[]; alreadyRunning: string[] }>("/api/JobErrorReport/retry");
