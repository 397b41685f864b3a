import type { Language } from "@ep/contracts";
import { Box, Input } from "@mantine/core";
import type {} from "altcha/types/react";
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CAPTCHA_CHALLENGE_URL } from "../api";

export type CaptchaHandle = {
  /** A fresh challenge after a failed attempt (payloads are single use). */
  reset: () => void;
  /** The solved payload, solving now when the widget has not finished yet. */
  ensure: () => Promise<string | undefined>;
};

type WidgetElement = HTMLElement & {
  reset: (state?: string) => void;
  verify: () => Promise<{ payload?: string } | null>;
};

/** The widget script (~50 kB) loads only on the screens that show it. */
const widgetTranslations: Partial<Record<Language, () => Promise<unknown>>> = {
  tr: () => import("altcha/i18n/tr"),
  de: () => import("altcha/i18n/de"),
  es: () => import("altcha/i18n/es-es"),
  fr: () => import("altcha/i18n/fr-fr"),
  ja: () => import("altcha/i18n/ja"),
  zh: () => import("altcha/i18n/zh-cn"),
};
const widgetLanguage: Record<Language, string> = {
  tr: "tr",
  en: "en",
  de: "de",
  es: "es-es",
  fr: "fr-fr",
  ja: "ja",
  zh: "zh-cn",
};

async function loadWidget(lang: Language): Promise<void> {
  await import("altcha");
  await widgetTranslations[lang]?.();
}

export type CaptchaLevel = "normal" | "hard";
/**
 * `level`: "hard" once the server asks for the harder proof (repeated failed sign-ins).
 * `deferred`: the widget's code loads when the visitor starts on the enclosing form (a focus or a
 * press inside it) or submits, not with the page, so the page's first view does not carry it.
 */
type Props = { onChange: (payload: string | undefined) => void; level?: CaptchaLevel; deferred?: boolean };

/** A promise with its resolver outside, for `ensure` to wait on the widget's element. */
function elementSlot() {
  let resolve: (el: WidgetElement | null) => void = () => undefined;
  const promise = new Promise<WidgetElement | null>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Self-hosted proof-of-work captcha (ALTCHA): solves in the background, no third party. */
export const CaptchaField = forwardRef<CaptchaHandle, Props>(function CaptchaField(
  { onChange, level = "normal", deferred = false },
  ref,
) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language in widgetLanguage ? i18n.language : "tr") as Language;
  const [ready, setReady] = useState(false);
  const [wanted, setWanted] = useState(!deferred);
  const box = useRef<HTMLDivElement | null>(null);
  const widget = useRef<WidgetElement | null>(null);
  const mounted = useRef(elementSlot());
  const attach = (el: WidgetElement | null) => {
    widget.current = el;
    if (el) mounted.current.resolve(el);
  };
  const payload = useRef<string | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // Deferred: wait for the visitor to start on the form.
  useEffect(() => {
    const form = box.current?.closest("form");
    if (wanted || !form) return;
    const start = () => setWanted(true);
    form.addEventListener("focusin", start);
    form.addEventListener("pointerdown", start);
    return () => {
      form.removeEventListener("focusin", start);
      form.removeEventListener("pointerdown", start);
    };
  }, [wanted]);

  useEffect(() => {
    if (!wanted) return;
    let alive = true;
    loadWidget(lang)
      .then(() => alive && setReady(true))
      .catch(() => {
        if (!alive) return;
        setReady(false);
        // `ensure` stops waiting: the form sends without a payload and the server says why.
        mounted.current.resolve(null);
      });
    return () => {
      alive = false;
    };
  }, [lang, wanted]);

  useEffect(() => {
    const el = widget.current;
    if (!ready || !el) return;
    const handler = (event: Event) => {
      const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      payload.current = detail.state === "verified" ? detail.payload : undefined;
      onChangeRef.current(payload.current);
    };
    el.addEventListener("statechange", handler);
    return () => el.removeEventListener("statechange", handler);
  }, [ready]);

  // A harder challenge from now on: drop the easy proof and solve the new one at once.
  useEffect(() => {
    const el = widget.current;
    if (level === "normal" || !ready || !el || typeof el.reset !== "function") return;
    payload.current = undefined;
    onChangeRef.current(undefined);
    el.reset();
    void el.verify().catch(() => undefined);
  }, [level, ready]);

  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        payload.current = undefined;
        onChangeRef.current(undefined);
        const el = widget.current;
        if (!el || typeof el.reset !== "function") return;
        el.reset();
        void el.verify().catch(() => undefined);
      },
      ensure: async () => {
        if (payload.current) return payload.current;
        // Not loaded yet (a deferred widget and a form filled without a focus): load it now.
        setWanted(true);
        const el = widget.current ?? (await mounted.current.promise);
        if (!el || typeof el.verify !== "function") return undefined;
        const result = await el.verify().catch(() => null);
        return result?.payload ?? payload.current;
      },
    }),
    [],
  );

  return (
    <Input.Wrapper label={t("auth.login.captcha")} id="captcha" labelElement="div">
      <Box mt={4} mih={68} data-testid="captcha" ref={box}>
        {ready && (
          <altcha-widget
            ref={attach}
            challenge={level === "hard" ? `${CAPTCHA_CHALLENGE_URL}?level=hard` : CAPTCHA_CHALLENGE_URL}
            auto="onload"
            language={widgetLanguage[lang]}
            name="captcha"
            style={{ "--altcha-max-width": "100%" } as React.CSSProperties}
          />
        )}
      </Box>
    </Input.Wrapper>
  );
});
