import type { ReactNode } from "react";

/** A block's headline number, then what it counts. */
export function HomeFigure({ value, testId, children }: { value: number; testId: string; children: ReactNode }) {
  return (
    <p className="mb-3 text-sm text-slate-700">
      <strong className="text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </strong>{" "}
      {children}
    </p>
  );
}
