import type { ReactNode } from "react";
import { ChartFigure, ChartSvg } from "./chart-frame";
import { ChartTableOnOpen } from "./chart-table";

export type BarSeries = { name: string; className: string };
export type Bar = { label: string; values: number[] };
export type BarLimit = { value: number; label: string; testId?: string };

const H = 200;
const PAD = { left: 72, right: 12, top: 18, bottom: 26 };
/** The share of its slot a bar fills. */
const BAR = 0.75;

/**
 * Bars over time (stacked when there are several series), drawn on the server as plain SVG,
 * with optional dashed limit lines (e.g. the upstream's requests a minute). Screen readers get
 * the caller's summary and the same bars as a table.
 *
 * Drawn once for every width: the plot's svg is one bar slot a unit wide and one pixel a unit
 * high, stretched sideways to fill its box (bars and lines may stretch; strokes stay a pixel),
 * and its labels are HTML beside it, so that they keep their size on a phone. Each series is
 * one path, not a rect per bar: a page carries the chart twice (its HTML and the payload React
 * hydrates from), and an hour of minutes drawn as rects made half the admin's home page.
 * For the same reason the table (newest bar first) is built only when opened.
 */
export function BarChart({
  id,
  testId,
  title,
  summary,
  caption,
  bars,
  series,
  limits = [],
  format,
  labelHeader,
  tableCaption,
}: {
  id: string;
  testId?: string;
  title: string;
  summary: string;
  caption?: ReactNode;
  bars: Bar[];
  series: BarSeries[];
  limits?: BarLimit[];
  format: (value: number) => string;
  /** The table's first column header, e.g. "Day (UTC)". */
  labelHeader: string;
  tableCaption: string;
}) {
  const totals = bars.map((b) => b.values.reduce((a, v) => a + v, 0));
  const top = Math.max(1, ...totals, ...limits.map((l) => l.value)) * 1.08;
  const y = (v: number) => round(PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom));
  const base = H - PAD.bottom;
  const highest = Math.max(0, ...totals);
  // The highest bar's value and zero, unless they would be written over each other (bars far
  // below a limit): then only the highest.
  const ticks = y(0) - y(highest) < 14 ? [highest] : [highest, 0];
  const slots = Math.max(1, bars.length);
  const xLabels = [0, Math.floor((bars.length - 1) / 2), bars.length - 1].filter((v, i, all) => all.indexOf(v) === i);

  // Per series, one rectangle per bar (`M x y h w v height h -w z`), stacked on the series below.
  const paths = series.map(() => "");
  bars.forEach((bar, i) => {
    let stacked = 0;
    bar.values.forEach((v, s) => {
      if (v <= 0 || s >= series.length) return;
      const y0 = y(stacked);
      stacked += v;
      const height = Math.max(1, y0 - y(stacked));
      paths[s] += `M${round(i + (1 - BAR) / 2)} ${round(y0 - height)}h${BAR}v${round(height)}h-${BAR}z`;
    });
  });
  const line = { vectorEffect: "non-scaling-stroke", strokeWidth: 1 } as const;

  return (
    <ChartFigure
      testId={testId}
      caption={
        <>
          {series.length > 1 ? (
            <span className="mr-3 inline-flex flex-wrap gap-3" aria-hidden="true">
              {series.map((s) => (
                <span key={s.name} className="inline-flex items-center gap-1">
                  <svg width="10" height="10" viewBox="0 0 10 10">
                    <rect width="10" height="10" className={s.className} />
                  </svg>
                  {s.name}
                </span>
              ))}
            </span>
          ) : null}
          {caption}
        </>
      }
      table={
        <ChartTableOnOpen
          testId={testId ? `${testId}-table` : undefined}
          caption={tableCaption}
          columns={[labelHeader, ...series.map((s) => s.name)]}
          rows={bars.toReversed().map((bar) => [bar.label, ...series.map((_, i) => format(bar.values[i] ?? 0))])}
        />
      }
    >
      <div
        className="relative text-[11px] leading-none text-slate-500"
        style={{ height: H, margin: `0 ${PAD.right}px 0 ${PAD.left}px` }}
      >
        <ChartSvg
          id={id}
          title={title}
          summary={summary}
          viewBox={`0 0 ${slots} ${H}`}
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full overflow-visible"
        >
          {ticks.map((v) => (
            <line key={v} x1={0} x2={slots} y1={y(v)} y2={y(v)} className="stroke-slate-200" {...line} />
          ))}
          {paths.map((d, s) => (d ? <path key={s} d={d} className={series[s]!.className} /> : null))}
          {limits.map((limit) => (
            <line
              key={limit.label}
              x1={0}
              x2={slots}
              y1={y(limit.value)}
              y2={y(limit.value)}
              className="stroke-amber-500"
              {...line}
              strokeWidth={1.5}
              strokeDasharray="6 4"
            />
          ))}
          <line x1={0} x2={0} y1={PAD.top} y2={base} className="stroke-slate-300" {...line} />
        </ChartSvg>
        {/* The labels: the summary and the table say the same to a screen reader. */}
        <div aria-hidden="true">
          {ticks.map((v) => (
            <span key={v} className="absolute right-full -translate-y-1/2 pr-1.5 tabular-nums" style={{ top: y(v) }}>
              {format(v)}
            </span>
          ))}
          {limits.map((limit) => (
            <span
              key={limit.label}
              data-testid={limit.testId}
              className="absolute right-0 -translate-y-full pb-1 text-amber-700"
              style={{ top: y(limit.value) }}
            >
              {limit.label}
            </span>
          ))}
          {xLabels.map((i, n) => (
            <span
              key={i}
              className={`absolute bottom-2 whitespace-nowrap ${n === 0 ? "" : n === xLabels.length - 1 ? "-translate-x-full" : "-translate-x-1/2"}`}
              style={{ left: `${round(((i + 0.5) / slots) * 100)}%` }}
            >
              {bars[i]?.label}
            </span>
          ))}
        </div>
      </div>
    </ChartFigure>
  );
}

/** Coordinates to two decimals: finer is invisible and only lengthens the page. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
