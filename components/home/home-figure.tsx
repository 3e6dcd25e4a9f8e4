import type { ReactNode } from "react";

/** A block's headline number, then what it counts; a capped count reads "1,000+". */
export function HomeFigure({
  value,
  capped = false,
  testId,
  children,
}: {
  value: number;
  capped?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <p className="mb-3 text-sm text-slate-700">
      <strong className="text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {capped ? `${value.toLocaleString("en-US")}+` : value}
      </strong>{" "}
      {children}
    </p>
  );
}
