import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./AppRoutes";
import { queryClient } from "./query-client";
import { cssVariablesResolver, theme } from "./theme";

export function App() {
  // Not deduplicated: the provider writes every theme variable itself, so Mantine's static copy of
  // the default ones (default-css-variables.css, 4 kB gzip) is not downloaded.
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      deduplicateCssVariables={false}
    >
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
