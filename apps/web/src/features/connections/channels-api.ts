import type { ChannelDto, ChannelSettingsDto, ChannelSystemInfo, ConnectionTest } from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, request } from "@/lib/api-client";

/*
 * The company's marketplace channels (issue 37) on the connections screen: the marketplaces it can
 * connect, and adding, testing, setting and removing one. The list itself is the integration feature's
 * `useChannels` (the job screens' selector reads the same query).
 */

/** GET /api/channels/systems — the marketplaces with their connection forms. */
export function useChannelSystems() {
  return useQuery({
    queryKey: ["channels", "systems"],
    queryFn: ({ signal }) => api.get<ChannelSystemInfo[]>("/api/channels/systems", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

type Login = { system: string; fields: Record<string, string> };

/** POST /api/channels/test — the marketplace's own test of a login not saved yet. */
export function useTestChannelLogin() {
  return useMutation({
    mutationFn: (login: Login) => api.post<ConnectionTest>("/api/channels/test", login),
  });
}

/** A channel's jobs and the job screens' selector change with it: everything is read again. */
function useChannelMutation<A, T>(call: (args: A) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries() });
}

/** POST /api/channels — saves (or replaces) the marketplace's login and tests it at once. */
export const useAddChannel = () =>
  useChannelMutation((login: Login & { settings?: ChannelSettingsDto }) =>
    request<ChannelDto>("/api/channels", { method: "POST", body: login }),
  );

/** POST /api/channels/:id/test — the stored login tested again. */
export const useRetestChannel = () =>
  useChannelMutation((id: number) => api.post<ChannelDto>(`/api/channels/${id}/test`));

/** PUT /api/channels/:id/settings — replaces the channel's settings (the next runs read them). */
export const useSaveChannelSettings = () =>
  useChannelMutation(({ id, settings }: { id: number; settings: ChannelSettingsDto }) =>
    request<ChannelDto>(`/api/channels/${id}/settings`, { method: "PUT", body: settings }),
  );

/** DELETE /api/channels/:id — the channel with its jobs and history. */
export const useRemoveChannel = () =>
  useChannelMutation((id: number) => request<null>(`/api/channels/${id}`, { method: "DELETE" }));

/** The settings form's values: text as typed, empty meaning "not set". */
export type ChannelSettingsForm = {
  safetyMode: "none" | "units" | "percent";
  safety: string;
  weight: string;
  markupPercent: string;
  rounding: "none" | "90" | "99";
  minimum: string;
  orderPrefix: string;
  orderSeries: string;
  /** The channel's orders get e-invoices (the PUT's `invoices`; absent means on). */
  invoices: boolean;
};

const text = (n: number | undefined) => (n === undefined ? "" : String(n));

export function settingsForm(s: ChannelSettingsDto): ChannelSettingsForm {
  const safety = s.safety;
  const units = safety && "units" in safety ? safety.units : undefined;
  const percent = safety && "percent" in safety ? safety.percent : undefined;
  return {
    safetyMode: units !== undefined ? "units" : percent !== undefined ? "percent" : "none",
    safety: text(units ?? percent),
    weight: text(s.weight),
    markupPercent: text(s.priceRule?.markupPercent),
    rounding: s.priceRule?.rounding ?? "none",
    minimum: text(s.priceRule?.minimum),
    orderPrefix: s.orderPrefix ?? "",
    orderSeries: s.orderSeries ?? "",
    invoices: s.invoices !== false,
  };
}

/** A typed number ("12,5" as the merchant writes it); undefined when empty. NaN goes to the server's check. */
const numberOf = (v: string): number | undefined => {
  const t = v.trim().replace(",", ".");
  return t === "" ? undefined : Number(t);
};

/**
 * The form back to the settings PUT takes. What the form does not edit (the order statuses) is kept; a
 * price rule exists when any of its parts is given (no markup: 0 %).
 */
export function settingsOf(form: ChannelSettingsForm, kept: ChannelSettingsDto): ChannelSettingsDto {
  const out: ChannelSettingsDto = kept.orderStatuses ? { orderStatuses: kept.orderStatuses } : {};
  const safety = numberOf(form.safety);
  if (form.safetyMode !== "none" && safety !== undefined)
    out.safety = form.safetyMode === "units" ? { units: safety } : { percent: safety };
  const weight = numberOf(form.weight);
  if (weight !== undefined) out.weight = weight;
  const markup = numberOf(form.markupPercent);
  const minimum = numberOf(form.minimum);
  if (markup !== undefined || minimum !== undefined || form.rounding !== "none")
    out.priceRule = {
      markupPercent: markup ?? 0,
      rounding: form.rounding,
      ...(minimum === undefined ? {} : { minimum }),
    };
  if (form.orderPrefix.trim()) out.orderPrefix = form.orderPrefix.trim();
  if (form.orderSeries.trim()) out.orderSeries = form.orderSeries.trim();
  // Off is sent as false; on stays absent (the server's default) unless it was stored explicitly.
  if (!form.invoices) out.invoices = false;
  else if (kept.invoices) out.invoices = true;
  return out;
}
