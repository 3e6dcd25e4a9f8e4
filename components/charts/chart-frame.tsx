import type { ReactNode, SVGProps } from "react";
import { ShowAsTable } from "./show-as-table";

/**
 * The figure every server-rendered chart shares: the drawing, a caption, and the same data as
 * a table behind "Show as a table" (`table`: ShowAsTable, or ChartTableOnOpen for many rows).
 */
export function ChartFigure({
  testId,
  caption,
  table,
  children,
}: {
  testId?: string;
  caption?: ReactNode;
  table: ReactNode;
  children: ReactNode;
}) {
  return (
    <figure data-testid={testId}>
      {children}
      {caption ? <figcaption className="mt-2 text-xs text-slate-500">{caption}</figcaption> : null}
      {table}
    </figure>
  );
}

/** A chart's svg, read by a screen reader as one image: its title and a one-sentence summary. */
export function ChartSvg({
  id,
  title,
  summary,
  children,
  ...svg
}: { id: string; title: string; summary: string; children: ReactNode } & SVGProps<SVGSVGElement>) {
  return (
    <svg {...svg} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      {children}
    </svg>
  );
}

/**
 * A chart drawn twice, wide from 640 px and narrow below, so that its labels (SVG text, which
 * scales with the drawing) stay readable on a phone. `draw(width)` returns the SVG's content
 * for a drawing `width` units wide and `height` high. A chart whose shapes may stretch draws
 * once instead, its labels in HTML (components/charts/bar-chart.tsx).
 */
export function ChartFrame({
  id,
  testId,
  title,
  summary,
  height,
  wide,
  narrow,
  draw,
  caption,
  table,
}: {
  id: string;
  testId?: string;
  title: string;
  summary: string;
  height: number;
  wide: number;
  narrow: number;
  draw: (width: number) => ReactNode;
  caption?: ReactNode;
  table: ReactNode;
}) {
  const svg = (width: number, svgId: string) => (
    <ChartSvg id={svgId} title={title} summary={summary} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full">
      {draw(width)}
    </ChartSvg>
  );
  return (
    <ChartFigure testId={testId} caption={caption} table={<ShowAsTable>{table}</ShowAsTable>}>
      <div className="hidden sm:block">{svg(wide, id)}</div>
      <div className="sm:hidden">{svg(narrow, `${id}-narrow`)}</div>
    </ChartFigure>
  );
}
