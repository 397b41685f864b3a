import type { CheckDifferenceGroup } from "@ep/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

/** GET /api/support/connection-checks — connection-check differences across companies, grouped. */
export function useCheckDifferences() {
  return useQuery({
    queryKey: ["support", "connection-checks"],
    queryFn: ({ signal }) => api.get<CheckDifferenceGroup[]>("/api/support/connection-checks", { signal }),
    refetchInterval: 60_000,
  });
}
