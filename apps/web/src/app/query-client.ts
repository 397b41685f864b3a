import { QueryClient } from "@tanstack/react-query";

/** One client; no automatic retries (spec: retry count 0). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 0, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: 0 },
  },
});
