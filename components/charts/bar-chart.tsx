import type { ReactNode } from "react";
import { ChartFrame } from "./chart-frame";
import { GridLine, LimitLine } from "./chart-lines";

export type BarSeries = { name: string; className: string };
export type Bar = { label: string; values: number[] };
export type BarLimit = { value: number; label: string; testId?: string };

const H = 200;
const PAD = { left: 72, right: 12, top: 18, bottom: 26 };

/**
 * Bars over time (stacked when there are several series), drawn on the server as plain SVG
 * in the shared chart frame, with optional dashed limit lines (e.g. the upstream's requests
 * a minute). Screen readers get the caller's summary and the same bars as a table.
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
  wide = 560,
  narrow = 320,
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
  wide?: number;
  narrow?: number;
}) {
  const totals = bars.map((b) => b.values.reduce((a, v) => a + v, 0));
  const top = Math.max(1, ...totals, ...limits.map((l) => l.value)) * 1.08;
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const base = H - PAD.bottom;
  const highest = Math.max(0, ...totals);
  // The highest bar's value and zero, unless they would be written over each other (bars far
  // below a limit): then only the highest.
  const ticks = y(0) - y(highest) < 14 ? [highest] : [highest, 0];

  const draw = (W: number) => {
    const step = (W - PAD.left - PAD.right) / Math.max(1, bars.length);
    const barWidth = Math.max(1, step * 0.75);
    const xLabels = [0, Math.floor((bars.length - 1) / 2), bars.length - 1].filter((v, i, all) => all.indexOf(v) === i);
    return (
      <>
        {ticks.map((v) => (
          <GridLine key={v} x1={PAD.left} x2={W - PAD.right} y={y(v)} label={format(v)} gap={6} />
        ))}
        {bars.map((bar, i) => {
          let stacked = 0;
          return (
            <g key={i}>
              {bar.values.map((v, s) => {
                if (v <= 0) return null;
                const y0 = y(stacked);
                stacked += v;
                return (
                  <rect
                    key={s}
                    x={PAD.left + i * step + (step - barWidth) / 2}
                    y={y(stacked)}
                    width={barWidth}
                    height={Math.max(1, y0 - y(stacked))}
                    className={series[s]?.className}
                  />
                );
              })}
            </g>
          );
        })}
        {limits.map((limit) => (
          <LimitLine
            key={limit.label}
            testId={limit.testId}
            x1={PAD.left}
            x2={W - PAD.right}
            y={y(limit.value)}
            label={limit.label}
          />
        ))}
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={base} className="stroke-slate-300" strokeWidth={1} />
        {xLabels.map((i, n) => (
          <text
            key={i}
            x={PAD.left + i * step + step / 2}
            y={H - 8}
            textAnchor={n === 0 ? "start" : n === xLabels.length - 1 ? "end" : "middle"}
            className="fill-slate-500 text-[11px]"
          >
            {bars[i]?.label}
          </text>
        ))}
      </>
    );
  };

  return (
    <ChartFrame
      id={id}
      testId={testId}
      title={title}
      summary={summary}
      height={H}
      wide={wide}
      narrow={narrow}
      draw={draw}
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
        <table className="mt-2 min-w-[16rem] text-sm" data-testid={testId ? `${testId}-table` : undefined}>
          <caption className="sr-only">{tableCaption}</caption>
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-6">
                {labelHeader}
              </th>
              {series.map((s) => (
                <th key={s.name} scope="col" className="py-1 pl-4 text-right">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...bars].reverse().map((bar) => (
              <tr key={bar.label} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-6 text-left font-mono text-xs font-normal">
                  {bar.label}
                </th>
                {series.map((s, i) => (
                  <td key={s.name} className="py-1 pl-4 text-right tabular-nums">
                    {format(bar.values[i] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
