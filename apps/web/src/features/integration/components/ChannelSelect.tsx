import { Select } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { type ChannelChoice, useChannels } from "../api";

/**
 * The channel selector of the job screens (issue 37): every channel together, the shop, or one
 * marketplace. Shown only to a company with marketplace channels, so the spec's screens stay as they are.
 */
export function ChannelSelect({
  value,
  onChange,
}: {
  value: ChannelChoice;
  onChange: (c: ChannelChoice) => void;
}) {
  const { t } = useTranslation();
  const channels = useChannels();
  if (!channels.data || channels.data.length === 0) return null;
  const data = [
    { value: "all", label: t("integration.channel.all") },
    { value: "shop", label: t("integration.channel.shop") },
    ...channels.data.map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const current = value === undefined ? "all" : String(value);
  return (
    // A list, not a segmented row: five channels do not fit a 390 px screen side by side.
    <Select
      aria-label={t("integration.channel.label")}
      data-testid="channel-select"
      data={data}
      value={current}
      allowDeselect={false}
      w={200}
      onChange={(v) => onChange(!v || v === "all" ? undefined : v === "shop" ? "shop" : Number(v))}
    />
  );
}

/** The channel's name of a job, for a badge; null for the shop's jobs. */
export function useChannelName(channelId: number | null | undefined): string | null {
  const channels = useChannels();
  if (channelId === null || channelId === undefined) return null;
  return channels.data?.find((c) => c.id === channelId)?.name ?? null;
}
