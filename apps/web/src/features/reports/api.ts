import type { RunStatisticsDto, SalesReportDto } from "@ep/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

type Range = { startDate?: string; endDate?: string };

export function useSalesReport(page: number, size: number, range: Range) {
  return useQuery({
    queryKey: ["sales-report", page, size, range.startDate ?? null, range.endDate ?? null],
    queryFn: ({ signal }) =>
      api.get<SalesReportDto>("/api/SalesReport", {
        signal,
        query: { pageNumber: page, pageSize: size, ...range },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useRunStatistics(range: Range) {
  return useQuery({
    queryKey: ["run-statistics", range.startDate ?? null, range.endDate ?? null],
    queryFn: ({ signal }) =>
      api.get<RunStatisticsDto>("/api/SalesReport/run-statistics", { signal, query: range }),
  });
}
