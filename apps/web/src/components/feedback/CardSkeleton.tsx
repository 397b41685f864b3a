import { Card, Skeleton, Stack, VisuallyHidden } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * Where a card's shape is known, its grey outline instead of a spinner: the page does not jump when
 * the data arrives. Screen readers still hear 'Yükleniyor...'.
 */
export function SkeletonState({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-testid="skeleton">
      <VisuallyHidden>{t("common.loading")}</VisuallyHidden>
      {children}
    </div>
  );
}

/** Ragged line ends read as text, not as a table (distinct, so each is its line's key). */
const LINE_WIDTHS = ["90%", "73%", "84%", "62%", "78%", "68%", "88%", "70%"];

/** A card's outline: a title bar and `lines` text lines, `height` tall. */
export function CardSkeleton({ height, lines = 3 }: { height: number; lines?: number }) {
  return (
    <Card h={height}>
      <Stack gap="sm">
        <Skeleton height={18} width="45%" radius="sm" />
        {LINE_WIDTHS.slice(0, lines).map((width) => (
          <Skeleton key={width} height={12} width={width} radius="sm" />
        ))}
      </Stack>
    </Card>
  );
}
