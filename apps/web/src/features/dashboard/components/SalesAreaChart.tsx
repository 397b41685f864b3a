import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import { thinLabels } from "@/lib/chart-labels";
import { formatMoney } from "@/lib/format";
import type { SalesPoint } from "../sales-series";

type Props = {
  points: SalesPoint[];
  ticks: number[];
  height: number;
  amountLabel: string;
  dayLabel: string;
};

const BRAND = "#009EF7";
const AXIS = {
  stroke: "#5E6278",
  font: "12px sans-serif",
  grid: { stroke: "#EFF2F5", dash: [3, 3] },
  ticks: { show: false },
};

/**
 * The area chart of sales per day: y-axis from 0 to the largest day, money in Turkish format, the
 * hovered day's amount in the legend under it. uPlot (about 20 kB) draws it on a canvas; it is
 * part of the dashboard's first load, so it has to stay light.
 */
export default function SalesAreaChart({ points, ticks, height, amountLabel, dayLabel }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const top = ticks[ticks.length - 1] ?? 0;
    const options: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      // The legend line (hovered day and amount) sits under the plot, inside the card's height.
      height: height - 40,
      scales: { x: { time: false }, y: { range: [0, top > 0 ? top : 1] } },
      axes: [
        {
          ...AXIS,
          // Thinned to the plot's width: a month's 31 dates overlapped on a phone.
          splits: (u) => thinLabels(points.length, u.bbox.width / uPlot.pxRatio),
          values: (_u, splits) => splits.map((i) => points[i]?.label ?? ""),
        },
        {
          ...AXIS,
          size: 110,
          splits: () => (top > 0 ? ticks : [0]),
          values: (_u, splits) => splits.map((v) => formatMoney(v)),
        },
      ],
      series: [
        { label: dayLabel, value: (_u, i) => (i === null ? "" : (points[i]?.key ?? "")) },
        {
          label: amountLabel,
          stroke: BRAND,
          width: 2,
          fill: "rgba(0, 158, 247, 0.15)",
          paths: uPlot.paths.spline?.(),
          points: { size: 6 },
          value: (_u, v) => (v === null ? "" : formatMoney(v)),
        },
      ],
      cursor: { drag: { x: false, y: false } },
    };
    const chart = new uPlot(options, [points.map((_, i) => i), points.map((p) => p.amount)], el);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(200, el.clientWidth), height: height - 40 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, ticks, height, amountLabel, dayLabel]);
  return <div ref={box} style={{ width: "100%", height }} />;
}
