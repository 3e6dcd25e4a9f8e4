import type { ReactNode } from "react";
import { isAppError } from "@/lib/errors";
import { Notice } from "@/components/ui/notice";

/**
 * Small pieces of the finance and admin home blocks: a block's data loaded without failing
 * the page (a block that cannot load says so, with the reference for support), and a row
 * of labelled figures.
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export const settle = <T,>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Each promise settled on its own: one block failing leaves the others shown. */
export function settleAll<T extends readonly unknown[]>(promises: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<{ [K in keyof T]: Settled<T[K]> }> {
  return Promise.all(promises.map((p) => settle(p))) as Promise<{ [K in keyof T]: Settled<T[K]> }>;
}

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
