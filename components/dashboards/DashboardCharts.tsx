'use client';

/**
 * The dashboard's two recharts charts (client components: recharts measures the DOM). Both take plain
 * serialisable points prepared on the server (domain/dashboards/dashboard.ts fillLag / fillOutcomes) and draw inside a
 * fixed-height `.chart-box`. They are pictures only: the page puts a text summary and a table beside each
 * (the text alternative), so the SVG is hidden from assistive technology and not focusable.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatLagSeconds, formatLagTick, lagTicks, outcomeLabels } from '@/domain/dashboards/dashboard';
import { outcomeClasses, type OutcomeClass } from '@/domain/vocabulary';

/** One hour of dispatch lag: `label` is the axis tick (`HH:mm` in the tenant zone), `full` the tooltip title. */
export interface LagChartPoint {
  label: string;
  full: string;
  /** Seconds; null for an hour without first attempts (a gap in the line). */
  p50: number | null;
  p95: number | null;
  count: number;
}

/** One hour of provider outcomes: a count per outcome class. */
export type OutcomeChartPoint = { label: string; full: string } & Record<OutcomeClass, number>;

/** Outcome colours follow the badge tones: good green, deferrals orange/purple, ambiguous amber, rejected red. */
const outcomeColours: Record<OutcomeClass, string> = {
  accepted: '#2e9e5b',
  transient: '#e0803a',
  rate_limited: '#8a63d2',
  ambiguous: '#d4a21c',
  rejected: '#c9372c',
};

const axisTick = { fontSize: 11, fill: '#667085' };
const fullLabel = (_: unknown, payload: readonly { payload?: { full?: string } }[] | undefined) => payload?.[0]?.payload?.full ?? '';

/** p50 and p95 dispatch lag per hour, seconds on the y axis. */
export function LagChart({ points }: { points: LagChartPoint[] }) {
  const ticks = lagTicks(Math.max(0, ...points.map((p) => p.p95 ?? 0), ...points.map((p) => p.p50 ?? 0)));
  return (
    <div className="chart-box" aria-hidden="true" data-chart="lag">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 520, height: 260 }}>
        <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 4 }} accessibilityLayer={false}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={axisTick} interval="preserveEnd" minTickGap={14} tickLine={false} padding={{ left: 8, right: 8 }} />
          <YAxis tick={axisTick} width={52} ticks={ticks} domain={[ticks[0]!, ticks[ticks.length - 1]!]} tickFormatter={(v: number) => formatLagTick(v)} />
          <Tooltip
            labelFormatter={fullLabel}
            formatter={(value, name) => [typeof value === 'number' ? formatLagSeconds(value) : '—', name]}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          <Line type="monotone" dataKey="p50" name="p50 (median)" stroke="#2f5bd3" strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="p95" name="p95" stroke="#d0652a" strokeWidth={2} strokeDasharray="5 3" dot={{ r: 3, strokeDasharray: 'none' }} connectNulls={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Delivery attempts per hour, stacked by outcome class. */
export function OutcomesChart({ points }: { points: OutcomeChartPoint[] }) {
  return (
    <div className="chart-box" aria-hidden="true" data-chart="outcomes">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 520, height: 260 }}>
        <BarChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 4 }} accessibilityLayer={false}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={axisTick} interval="preserveEnd" minTickGap={14} tickLine={false} />
          <YAxis tick={axisTick} width={40} allowDecimals={false} />
          <Tooltip labelFormatter={fullLabel} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {outcomeClasses.map((o) => (
            <Bar key={o} dataKey={o} name={outcomeLabels[o]} stackId="outcomes" fill={outcomeColours[o]} maxBarSize={28} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
