import type { ReactNode } from "react";

/** The horizontal lines every chart draws, so that each chart looks and reads the same. */
type Span = { x1: number; x2: number; y: number };

/** A grid line with its value written left of the axis. */
export function GridLine({ x1, x2, y, label, gap = 8 }: Span & { label: ReactNode; gap?: number }) {
  return (
    <g>
      <line x1={x1} x2={x2} y1={y} y2={y} className="stroke-slate-200" strokeWidth={1} />
      <text x={x1 - gap} y={y + 4} textAnchor="end" className="fill-slate-500 text-[11px] tabular-nums">
        {label}
      </text>
    </g>
  );
}

/** A dashed line one must not cross (a threshold, a limit), named at its right end. */
export function LimitLine({ x1, x2, y, label, testId }: Span & { label: ReactNode; testId?: string }) {
  return (
    <g data-testid={testId}>
      <line x1={x1} x2={x2} y1={y} y2={y} className="stroke-amber-500" strokeWidth={1.5} strokeDasharray="6 4" />
      <text x={x2} y={y - 5} textAnchor="end" className="fill-amber-700 text-[11px]">
        {label}
      </text>
    </g>
  );
}
