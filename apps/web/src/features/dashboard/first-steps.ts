import type { ConnectionsOverview, ConnectionView, ConnectorInfo, DashboardDto } from "@ep/contracts";

/**
 * The first-steps checklist of a new company's dashboard: what is missing for the first sync, each
 * step with the one place that fixes it. Pure, so every combination is unit-tested.
 */
export type FirstStepId = "erp" | "shop" | "firstSync" | "einvoice" | "notifications";

export type FirstStep = {
  id: FirstStepId;
  done: boolean;
  /** Optional steps neither block the card from closing nor count as missing. */
  optional: boolean;
  /** The Turkish text under `dashboard.firstSteps.<key>`, with its values. */
  text: { key: string; values?: Record<string, string> };
  /** Where it is fixed, or null when nothing can be done yet (a later step waits for an earlier one). */
  link: { to: string; label: string } | null;
  /** The ERP step of a company with nothing connected also offers the sandbox. */
  sandbox?: boolean;
};

export type FirstStepsInput = {
  overview: ConnectionsOverview;
  dashboard: Pick<DashboardDto, "companyJobs">;
  notificationsSeen: boolean;
};

const SETTINGS = "/settings/api-keys";
/** The places on the connections screen a step leads to (each element has this id; the page scrolls to it). */
export const FIRST_STEP_TARGETS = {
  agents: `${SETTINGS}#agents`,
  sqlMapping: `${SETTINGS}#sql-mapping`,
  erpConnection: `${SETTINGS}#connection-erp`,
  einvoiceConnection: `${SETTINGS}#connection-einvoice`,
} as const;

function connectionStep(
  id: "erp" | "shop",
  saved: ConnectionView | null,
  registered: ConnectorInfo | undefined,
  anySaved: boolean,
): FirstStep {
  const base = { id, optional: false };
  const system = saved?.name ?? registered?.name ?? "";
  if (saved?.status.state === "connected") {
    return {
      ...base,
      done: true,
      text: { key: saved.isEmulated ? `${id}.sandbox` : `${id}.done`, values: { system } },
      link: null,
    };
  }
  if (saved) {
    const failed = saved.status.state === "failed";
    return {
      ...base,
      done: false,
      text: {
        key: failed ? "connection.failed" : "connection.untested",
        values: { system, reason: saved.status.message },
      },
      link: { to: SETTINGS, label: failed ? "fix" : "test" },
    };
  }
  // Nothing saved: what the chosen system needs before it can connect.
  const key =
    registered && (!registered.implemented || registered.availability === "soon")
      ? "connection.notReady"
      : registered?.availability === "mapping"
        ? "connection.mapping"
        : registered?.onPremOnly || registered?.availability === "agent"
          ? "connection.agent"
          : "connection.missing";
  // Each need leads to where it is met: the agent card, the SQL queries, the ticket opened at registration.
  const link: FirstStep["link"] =
    key === "connection.notReady"
      ? { to: "/tickets", label: "ticket" }
      : key === "connection.agent"
        ? { to: FIRST_STEP_TARGETS.agents, label: "pairAgent" }
        : key === "connection.mapping"
          ? { to: FIRST_STEP_TARGETS.sqlMapping, label: "defineQueries" }
          : { to: SETTINGS, label: "connect" };
  return {
    ...base,
    done: false,
    text: { key, values: { system } },
    link,
    sandbox: id === "erp" && !anySaved,
  };
}

export function firstSteps({ overview, dashboard, notificationsSeen }: FirstStepsInput): FirstStep[] {
  const find = (kind: "erp" | "ecommerce", type: number) =>
    overview.connectors.find((c) => c.connectionType === kind && c.productType === type);
  const anySaved = overview.erp !== null || overview.ecommerce !== null;
  const erp = connectionStep("erp", overview.erp, find("erp", overview.registeredErpType), anySaved);
  const shop = connectionStep(
    "shop",
    overview.ecommerce,
    find("ecommerce", overview.registeredEcommerceType),
    anySaved,
  );
  const jobs = dashboard.companyJobs;
  const synced = jobs.some((j) => j.last_success_date !== null);
  const firstSync: FirstStep = {
    id: "firstSync",
    optional: false,
    done: synced,
    text: { key: synced ? "firstSync.done" : jobs.length === 0 ? "firstSync.noJobs" : "firstSync.missing" },
    // The jobs exist once both sides are saved; until then there is nothing to run.
    link: synced || jobs.length === 0 ? null : { to: "/integration/product", label: "run" },
  };
  // An e-invoice service as the third connection, or as the "ERP" itself.
  const einvoiceConnected =
    overview.einvoice !== null ||
    (overview.erp !== null && find("erp", overview.erp.productType)?.einvoice === true);
  // A company that registered with an e-invoice service: its own service's settings, by name.
  const registeredService = find("erp", overview.registeredErpType);
  const ownService = registeredService?.einvoice === true;
  const einvoice: FirstStep = {
    id: "einvoice",
    optional: true,
    done: einvoiceConnected,
    text: einvoiceConnected
      ? { key: "einvoice.done" }
      : ownService
        ? { key: "einvoice.registered", values: { system: registeredService.name } }
        : { key: "einvoice.missing" },
    link: einvoiceConnected
      ? null
      : {
          to: ownService ? FIRST_STEP_TARGETS.erpConnection : FIRST_STEP_TARGETS.einvoiceConnection,
          label: "einvoiceSettings",
        },
  };
  const notifications: FirstStep = {
    id: "notifications",
    optional: true,
    done: notificationsSeen,
    text: { key: notificationsSeen ? "notifications.done" : "notifications.missing" },
    link: notificationsSeen ? null : { to: "/notifications", label: "open" },
  };
  return [erp, shop, firstSync, einvoice, notifications];
}

/** The card goes away for good once every required step is done. */
export const requiredDone = (steps: FirstStep[]) => steps.every((s) => s.optional || s.done);

/** Closed by the user, or seen the notifications screen: remembered per company in this browser. */
export const firstStepsStorageKey = (companyId: number, what: "closed" | "notificationsSeen") =>
  `ep.firstSteps.${companyId}.${what}`;
