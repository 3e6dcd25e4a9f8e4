import type { ReactNode } from "react";

/**
 * The frame every server-rendered chart shares: two drawings of one chart, wide from 640 px
 * and narrow below, so that labels stay readable on a phone; a title and a one-sentence
 * summary for screen readers; a caption; and the same data as a table behind "Show as a table".
 * `draw(width)` returns the SVG's content for a drawing `width` units wide and `height` high.
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
  const svg = (width: number, suffix: string) => (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${id}${suffix}-title ${id}${suffix}-desc`}
    >
      <title id={`${id}${suffix}-title`}>{title}</title>
      <desc id={`${id}${suffix}-desc`}>{summary}</desc>
      {draw(width)}
    </svg>
  );
  return (
    <figure data-testid={testId}>
      <div className="hidden sm:block">{svg(wide, "")}</div>
      <div className="sm:hidden">{svg(narrow, "-narrow")}</div>
      {caption ? <figcaption className="mt-2 text-xs text-slate-500">{caption}</figcaption> : null}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-brand-600 hover:underline">Show as a table</summary>
        {table}
      </details>
    </figure>
  );
}
