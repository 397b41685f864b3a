import "./styles-signed-in";
import { lazy, useState } from "react";
import { Navigate, Route, Routes } from "react-router";
import { AppLayout } from "@/components/layout/AppLayout";
import { useAccount } from "@/features/account/api";
import { takePartnerReturn } from "@/features/auth/partner-return";
import { useSession } from "@/features/auth/session-store";

const DashboardPage = lazy(() => import("@/features/dashboard/DashboardPage"));
const SettingsPage = lazy(() => import("@/features/account/pages/SettingsPage"));
const AccountDetailsPage = lazy(() => import("@/features/account/pages/AccountDetailsPage"));
const CompanyPage = lazy(() => import("@/features/account/pages/CompanyPage"));
const LicencePage = lazy(() => import("@/features/account/pages/LicencePage"));
const ApiKeysPage = lazy(() => import("@/features/connections/pages/ApiKeysPage"));
const IntegrationSettingsPage = lazy(() => import("@/features/connections/pages/IntegrationSettingsPage"));
const StockLocationsPage = lazy(() => import("@/features/connections/pages/StockLocationsPage"));
const TicketsPage = lazy(() => import("@/features/tickets/pages/TicketsPage"));
const CreateTicketPage = lazy(() => import("@/features/tickets/pages/CreateTicketPage"));
const TicketDetailPage = lazy(() => import("@/features/tickets/pages/TicketDetailPage"));
const IntegrationPage = lazy(() => import("@/features/integration/pages/IntegrationPage"));
const FailedTasksPage = lazy(() => import("@/features/integration/pages/FailedTasksPage"));
const InvoicesPage = lazy(() => import("@/features/invoices/pages/InvoicesPage"));
const ReportsPage = lazy(() => import("@/features/reports/pages/ReportsPage"));
const NotificationsPage = lazy(() => import("@/features/notifications/pages/NotificationsPage"));
const ActivitiesPage = lazy(() => import("@/features/activities/pages/ActivitiesPage"));
const AboutPage = lazy(() => import("@/features/about/AboutPage"));
const PrivacyPage = lazy(() => import("@/features/privacy/pages/PrivacyPage"));
const RetentionPage = lazy(() => import("@/features/retention/pages/RetentionPage"));
const SupportRoutes = lazy(() => import("@/features/support/routes"));

/** The signed-in routes (spec section 2). Unknown paths go to /error/404. */
export default function PrivateRoutes() {
  // Our support team signs in on the same screen and lands in its own console at /support.
  return useSession().user?.role === "support" ? <SupportRoutes /> : <CompanyRoutes />;
}

function CompanyRoutes() {
  // The account is fetched and persisted as soon as the signed-in state starts.
  useAccount();
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to="/dashboard" replace />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="integration/product/failed-tasks" element={<FailedTasksPage area="product" />} />
        <Route path="integration/order/invoices" element={<InvoicesPage />} />
        <Route path="integration/order/failed-tasks" element={<FailedTasksPage area="order" />} />
        <Route path="integration/product/*" element={<IntegrationPage area="product" />} />
        <Route path="integration/order/*" element={<IntegrationPage area="order" />} />
        <Route path="reports" element={<ReportsPage />} />
        <Route path="notifications" element={<NotificationsPage />} />
        <Route path="activities" element={<ActivitiesPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="settings/account" element={<Navigate to="/settings/account/details" replace />} />
        <Route path="settings/account/details" element={<AccountDetailsPage />} />
        <Route path="settings/account/*" element={<Navigate to="/settings/account/details" replace />} />
        <Route path="settings/company" element={<CompanyPage />} />
        <Route path="settings/licence" element={<LicencePage />} />
        <Route path="settings/privacy" element={<PrivacyPage />} />
        <Route path="settings/retention" element={<RetentionPage />} />
        <Route path="settings/api-keys/*" element={<ApiKeysPage />} />
        <Route
          path="settings/integration"
          element={<Navigate to="/settings/integration/ProductIntegration" replace />}
        />
        <Route path="settings/integration/:jobType" element={<IntegrationSettingsPage />} />
        <Route path="settings/stock-locations" element={<StockLocationsPage />} />
        <Route path="tickets" element={<TicketsPage />} />
        <Route path="tickets/create" element={<CreateTicketPage />} />
        <Route path="tickets/:ticketId" element={<TicketDetailPage />} />
      </Route>
      <Route path="account/*" element={<AfterSignIn />} />
      <Route path="auth/*" element={<Navigate to="/dashboard" replace />} />
      <Route path="*" element={<Navigate to="/error/404" replace />} />
    </Routes>
  );
}

/** Just signed in (or registered): back to the partner link that asked for it, else the dashboard. */
function AfterSignIn() {
  const [target] = useState(takePartnerReturn);
  return <Navigate to={target ?? "/dashboard"} replace />;
}
