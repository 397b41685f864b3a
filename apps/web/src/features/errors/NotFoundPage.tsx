import { useTranslation } from "react-i18next";
import { ErrorLayout } from "./ErrorLayout";

/** /error/404 — 'Sayfa bulunamadı' with a button back to home. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorLayout
      code={t("errors.notFound.code")}
      title={t("errors.notFound.title")}
      text={t("errors.notFound.text")}
    />
  );
}
