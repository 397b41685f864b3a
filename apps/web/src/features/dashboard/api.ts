import type { DailySalesDto, DashboardDto } from "@ep/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export type SalesPeriod = "weekly" | "monthly";

export function useDashboard() {
  return useQuery({
    queryKey: ["dashboard"],
    queryFn: ({ signal }) => api.get<DashboardDto>("/api/Dashboard", { signal }),
    refetchInterval: 60_000,
  });
}

/** Toggling the period reloads the data (spec section 4). */
export function useSalesReports(period: SalesPeriod) {
  return useQuery({
    queryKey: ["dashboard", "sales", period],
    queryFn: ({ signal }) =>
      api.get<DailySalesDto[]>("/api/Dashboard/sales-reports", { signal, query: { timePeriod: period } }),
    placeholderData: keepPreviousData,
  });
}
