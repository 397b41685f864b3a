import { lazy } from "react";
import { Navigate, Route, Routes } from "react-router";
import { AuthLayout } from "./components/AuthLayout";
import LoginPage from "./pages/LoginPage";

const RegistrationPage = lazy(() => import("./pages/RegistrationPage"));
const ForgotPasswordPage = lazy(() => import("./pages/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("./pages/ResetPasswordPage"));

/** /account/* while signed out. Any other path there goes back to /account, which shows sign-in. */
export default function AuthRoutes() {
  return (
    <Routes>
      <Route element={<AuthLayout />}>
        <Route index element={<Navigate to="login" replace />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="registration" element={<RegistrationPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="*" element={<Navigate to="/account" replace />} />
      </Route>
    </Routes>
  );
}
