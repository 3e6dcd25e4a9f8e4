import type { ReactNode } from "react";
import { isAppError } from "@/lib/errors";
import { Notice } from "@/components/ui/notice";
import type { Settled } from "@/components/ui/settle";

/**
 * Small pieces of the finance and admin home blocks: a block's body in its three states
 * (could not load, with the reference for support; nothing to show; the data), and a row
 * of labelled figures. The data is loaded with settleAll (components/ui/settle.ts).
 */
/** A block's body in its three states: could not load, nothing to show, the data. */
export function BlockBody<T>({
  result,
  what,
  empty,
  children,
}: {
  result: Settled<T>;
  /** "The balances", for the error's title. */
  what: string;
  /** What to say when the block has nothing to show (null: always show the data). */
  empty: ((value: T) => string | null) | null;
  children: (value: T) => ReactNode;
}) {
  if (!result.ok) return <BlockError error={result.error} what={what} />;
  const nothing = empty?.(result.value);
  if (nothing) return <p className="text-sm text-slate-600">{nothing}</p>;
  return <>{children(result.value)}</>;
}

export function BlockError({ error, what }: { error: unknown; what: string }) {
  return (
    <Notice
      tone="error"
      title={`${what} could not be loaded.`}
      correlationId={isAppError(error) ? error.correlationId : undefined}
    >
      {isAppError(error) ? error.message : "Try again in a minute."}
    </Notice>
  );
}

export type Figure = { label: string; value: ReactNode; testId?: string; tone?: "warning" };

/** Figures side by side, each a label over its value (two columns on a phone). */
export function Figures({ figures }: { figures: Figure[] }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
      {figures.map((f) => (
        <div key={f.label}>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{f.label}</dt>
          <dd
            className={`mt-0.5 text-xl font-semibold tabular-nums ${f.tone === "warning" ? "text-amber-700" : "text-slate-900"}`}
            data-testid={f.testId}
          >
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
