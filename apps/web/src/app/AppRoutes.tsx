import { PARTNER_PRODUCTS } from "@ep/contracts";
import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { LoadingState } from "@/components/feedback/LoadingState";
import { useIsSignedIn } from "@/features/auth/session-store";
import { AppErrorBoundary } from "@/features/errors/AppErrorBoundary";
import SystemErrorPage from "@/features/errors/SystemErrorPage";
import { ensureFeatureLocales } from "@/i18n";

const AuthRoutes = lazy(() => import("@/features/auth/routes"));
// The signed-in screens and their features' texts arrive together.
const PrivateRoutes = lazy(() =>
  Promise.all([import("./PrivateRoutes"), ensureFeatureLocales()]).then(([routes]) => routes),
);
const LogoutPage = lazy(() => import("@/features/auth/pages/LogoutPage"));
const NotFoundPage = lazy(() => import("@/features/errors/NotFoundPage"));
const AuthLayout = lazy(() =>
  import("@/features/auth/components/AuthLayout").then((m) => ({ default: m.AuthLayout })),
);
const PartnerEntryPage = lazy(() => import("@/features/auth/pages/PartnerEntryPage"));
const LogoAuthRedirectPage = lazy(() => import("@/features/auth/pages/LogoAuthRedirectPage"));
const IdeasoftOAuthPage = lazy(() =>
  import("@/features/auth/pages/PartnerInstallPage").then((m) => ({ default: m.IdeasoftOAuthPage })),
);

/** /auth/login is where an unauthorised answer sends the user: the sign-in screen. */
function AuthLoginRedirect() {
  const location = useLocation();
  return <Navigate to={{ pathname: "/account/login", search: location.search }} replace />;
}

export function AppRoutes() {
  const signedIn = useIsSignedIn();
  const { pathname } = useLocation();
  return (
    <AppErrorBoundary resetKey={pathname}>
      <Suspense fallback={<LoadingState minHeight="100dvh" />}>
        <Routes>
          <Route path="error/404" element={<NotFoundPage />} />
          <Route path="error/500" element={<SystemErrorPage />} />
          <Route path="error/*" element={<Navigate to="/error/404" replace />} />
          <Route path="logout" element={<LogoutPage />} />
          {/* Partner screens (spec section 2), signed in or not: `/{product}-auth` for every shop of the list. */}
          <Route element={<AuthLayout />}>
            <Route path="ideasoft-app-install" element={<PartnerEntryPage product="ideasoft" />} />
            {PARTNER_PRODUCTS.map((product) => (
              <Route
                key={product}
                path={`${product}-auth`}
                element={<PartnerEntryPage product={product} />}
              />
            ))}
            <Route path="ideasoft-oauth2" element={<IdeasoftOAuthPage />} />
            <Route path="logo-auth-redirect" element={<LogoAuthRedirectPage />} />
          </Route>
          {signedIn ? (
            <Route path="*" element={<PrivateRoutes />} />
          ) : (
            <>
              <Route path="auth/login" element={<AuthLoginRedirect />} />
              <Route path="account/*" element={<AuthRoutes />} />
              <Route path="*" element={<Navigate to="/account" replace />} />
            </>
          )}
        </Routes>
      </Suspense>
    </AppErrorBoundary>
  );
}
