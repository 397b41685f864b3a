import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import { thinLabels } from "@/lib/chart-labels";
import { formatNumber } from "@/lib/format";
import type { RunPoint } from "../run-series";

type Props = {
  points: RunPoint[];
  height: number;
  labels: { run: string; written: string; failed: string; seconds: string };
};

const AXIS = {
  stroke: "#5E6278",
  font: "12px sans-serif",
  grid: { stroke: "#EFF2F5", dash: [3, 3] },
  ticks: { show: false },
};

/**
 * The last runs as bars (records written, failures) with their duration as a line on the right
 * axis. uPlot, as the dashboard's sales chart: one small canvas library for every chart.
 */
export default function RecentRunsChart({ points, height, labels }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const bars = uPlot.paths.bars?.({ size: [0.35, 24] });
    const options: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: height - 40,
      scales: { x: { time: false }, count: { range: (_u, _min, max) => [0, Math.max(1, max)] }, s: {} },
      axes: [
        {
          ...AXIS,
          splits: (u) => thinLabels(points.length, u.bbox.width / uPlot.pxRatio, 90),
          values: (_u, splits) => splits.map((i) => points[i]?.label ?? ""),
        },
        { ...AXIS, scale: "count", size: 60, values: (_u, splits) => splits.map((v) => formatNumber(v)) },
        {
          ...AXIS,
          scale: "s",
          side: 1,
          size: 50,
          grid: { show: false },
          values: (_u, s) => s.map((v) => `${v} sn`),
        },
      ],
      series: [
        { label: labels.run, value: (_u, i) => (i === null ? "" : (points[i]?.label ?? "")) },
        {
          label: labels.written,
          scale: "count",
          stroke: "#50CD89",
          fill: "rgba(80, 205, 137, 0.6)",
          paths: bars,
          points: { show: false },
          value: (_u, v) => (v === null ? "" : formatNumber(v)),
        },
        {
          label: labels.failed,
          scale: "count",
          stroke: "#F1416C",
          fill: "rgba(241, 65, 108, 0.7)",
          paths: bars,
          points: { show: false },
          value: (_u, v) => (v === null ? "" : formatNumber(v)),
        },
        {
          label: labels.seconds,
          scale: "s",
          stroke: "#009EF7",
          width: 2,
          points: { size: 5 },
          value: (_u, v) => (v === null ? "" : `${v} sn`),
        },
      ],
      cursor: { drag: { x: false, y: false } },
    };
    const x = points.map((_, i) => i);
    const chart = new uPlot(
      options,
      [x, points.map((p) => p.written), points.map((p) => p.failed), points.map((p) => p.seconds)],
      el,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(200, el.clientWidth), height: height - 40 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, height, labels]);
  return <div ref={box} style={{ width: "100%", height }} />;
}
