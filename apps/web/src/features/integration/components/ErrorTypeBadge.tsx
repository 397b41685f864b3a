import { ENGINE_FAILURE_TYPES, PERMANENT_FAILURE_REASONS, TRANSIENT_FAILURE_REASONS } from "@ep/contracts";
import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";

const KNOWN = [...TRANSIENT_FAILURE_REASONS, ...PERMANENT_FAILURE_REASONS, ...ENGINE_FAILURE_TYPES] as const;
type KnownType = (typeof KNOWN)[number];
const isKnown = (code: string): code is KnownType => (KNOWN as readonly string[]).includes(code);

/**
 * The Turkish label of an error type code (`unknown_item` → 'Karşı sistemde bulunamadı'); a code
 * the panel does not know reads 'Diğer hata' (the code itself stays under Teknik ayrıntı).
 */
export function useErrorTypeLabel(): (code: string) => string {
  const { t } = useTranslation();
  return (code) => (isKnown(code) ? t(`integration.errorTypes.${code}`) : t("integration.errorTypes.other"));
}

export function ErrorTypeBadge({ code }: { code: string }) {
  const label = useErrorTypeLabel();
  return (
    <Badge variant="light" color="red" tt="none" data-error-type={code}>
      {label(code)}
    </Badge>
  );
}
