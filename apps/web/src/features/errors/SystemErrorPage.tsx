import { useTranslation } from "react-i18next";
import { ErrorLayout } from "./ErrorLayout";

/** /error/500 — something went wrong, try again later. */
export default function SystemErrorPage() {
  const { t } = useTranslation();
  return (
    <ErrorLayout
      code={t("errors.system.code")}
      title={t("errors.system.title")}
      text={t("errors.system.text")}
    />
  );
}
