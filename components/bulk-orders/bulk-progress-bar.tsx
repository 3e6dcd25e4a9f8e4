import type { BulkProgress } from "@/lib/bulk-orders/bulk-view";

/**
 * How far the placing is: one bar, segments for placed, failed and cancelled rows, with
 * the numbers in text beside it (and to screen readers through the progressbar role).
 */
export function BulkProgressBar({ progress }: { progress: BulkProgress }) {
  const total = Math.max(progress.toPlace, 1);
  const width = (n: number) => `${(Math.min(n, total) / total) * 100}%`;
  const label = `${progress.settled} of ${progress.toPlace} rows done: ${progress.placed} placed, ${progress.failed} failed${progress.cancelled ? `, ${progress.cancelled} cancelled` : ""}`;
  return (
    <div>
      <div
        role="progressbar"
        aria-label="Rows done"
        aria-valuemin={0}
        aria-valuemax={progress.toPlace}
        aria-valuenow={progress.settled}
        aria-valuetext={label}
        data-testid="bulk-progress"
        data-settled={progress.settled}
        data-placed={progress.placed}
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-emerald-500 transition-[width] duration-500" style={{ width: width(progress.placed) }} />
        <div className="h-full bg-red-500 transition-[width] duration-500" style={{ width: width(progress.failed) }} />
        <div className="h-full bg-slate-400 transition-[width] duration-500" style={{ width: width(progress.cancelled) }} />
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="bulk-progress-text">
        <span className="font-semibold text-slate-900">
          {progress.placed} of {progress.toPlace} placed
        </span>
        {progress.failed ? <span className="text-red-700"> · {progress.failed} failed</span> : null}
        {progress.cancelled ? <span> · {progress.cancelled} cancelled</span> : null}
        {progress.placing ? <span> · {progress.placing} in flight</span> : null}
        {progress.pending ? <span> · {progress.pending} waiting</span> : null}
      </p>
    </div>
  );
}
