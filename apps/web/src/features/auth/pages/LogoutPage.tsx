import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { LoadingState } from "@/components/feedback/LoadingState";
import { signOut } from "../sign-out";

/** /logout: revokes the session, clears local state, reloads onto /account/login. */
export default function LogoutPage() {
  const { t } = useTranslation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, []);
  return <LoadingState label={t("auth.logout.inProgress")} minHeight="100dvh" />;
}
