import { Loader, Stack } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "../brand/Logo";
import classes from "./layout.module.css";

/** Splash over the panel for `duration` ms after the signed-in state starts (spec: 1 s). */
export function SplashScreen({ duration = 1000 }: { duration?: number }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), duration);
    return () => clearTimeout(timer);
  }, [duration]);
  if (!visible) return null;
  return (
    <div
      className={classes.splash}
      role="status"
      aria-live="polite"
      aria-label={t("splash.label")}
      data-testid="splash"
    >
      <Stack align="center" gap="lg">
        <Logo size="lg" />
        <Loader size="sm" aria-hidden />
      </Stack>
    </div>
  );
}
