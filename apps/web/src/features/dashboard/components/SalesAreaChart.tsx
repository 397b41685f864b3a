import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "@/lib/format";
import type { SalesPoint } from "../sales-series";

type Props = { points: SalesPoint[]; ticks: number[]; height: number; amountLabel: string };

/** The area chart of sales per day: y-axis from 0 to the largest day, money in Turkish format. */
export default function SalesAreaChart({ points, ticks, height, amountLabel }: Props) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <AreaChart data={points} margin={{ top: 10, right: 10, left: 10, bottom: 0 }}>
        <defs>
          <linearGradient id="salesFill" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="#009EF7" stopOpacity={0.35} />
            <stop offset="100%" stopColor="#009EF7" stopOpacity={0.02} />
          </linearGradient>
        </defs>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} />
        <YAxis
          domain={[0, ticks[ticks.length - 1] ?? 0]}
          ticks={ticks}
          tickFormatter={(v: number) => formatMoney(v)}
          width={110}
          tick={{ fontSize: 12 }}
        />
        <Tooltip
          formatter={(v) => [formatMoney(Number(v)), amountLabel]}
          labelFormatter={(_l, payload) => payload?.[0]?.payload?.key ?? ""}
        />
        <Area type="monotone" dataKey="amount" stroke="#009EF7" strokeWidth={2} fill="url(#salesFill)" />
      </AreaChart>
    </ResponsiveContainer>
  );
}
