import type { JobDto } from "@ep/contracts";
import { ThemeIcon } from "@mantine/core";
import {
  type Icon,
  IconCategory,
  IconPackageExport,
  IconRefresh,
  IconShoppingCart,
  IconStack2,
  IconTag,
  IconTags,
} from "@tabler/icons-react";

/** The known job names with their own icon (spec section 3); any other name uses the price icon. */
const ICONS: Record<string, Icon> = {
  "Fiyat Güncelleme": IconTag,
  "Sipariş Aktarımı": IconShoppingCart,
  "Kategori Aktarımı": IconCategory,
  "Ürün Güncelleme": IconRefresh,
  "Ürün Aktarımı": IconPackageExport,
  "Stok Güncelleme": IconStack2,
  "Fiyat Grubu Aktarımı": IconTags,
};
const BY_TYPE: Record<string, Icon> = {
  PriceIntegration: IconTag,
  OrderIntegration: IconShoppingCart,
  CategoryIntegration: IconCategory,
  ProductUpdate: IconRefresh,
  ProductIntegration: IconPackageExport,
  StockIntegration: IconStack2,
};

/**
 * Spec section 4: disabled = grey; enabled with a successful last run = green; with a failed one =
 * red. A job that has not run yet has no outcome: a neutral blue-grey, not a failure.
 */
export function jobColor(
  job: Pick<JobDto, "is_enabled" | "last_Run_State">,
): "gray" | "green" | "red" | "blue" {
  if (!job.is_enabled) return "gray";
  if (job.last_Run_State === null) return "blue";
  return job.last_Run_State ? "green" : "red";
}

export function JobIcon({ job }: { job: Pick<JobDto, "name" | "type" | "is_enabled" | "last_Run_State"> }) {
  const Glyph = ICONS[job.name] ?? BY_TYPE[job.type] ?? IconTag;
  const color = jobColor(job);
  return (
    <ThemeIcon variant="light" color={color} size={34} radius="md" data-color={color} aria-hidden>
      <Glyph size={18} />
    </ThemeIcon>
  );
}
