import { ORDER_STATUS_LABELS, type OrderStatus } from "@/lib/orders/states";

type StepState = "done" | "current" | "upcoming";

/**
 * The path an order took (or is taking): failed and refunded replace or extend the happy
 * path. An order fails from reserved or from processing and the mirror cannot tell which,
 * so a failed order shows no processing step rather than claim one.
 */
function stepsFor(status: string): OrderStatus[] {
  if (status === "failed") return ["reserved", "failed"];
  if (status === "refunded") return ["reserved", "processing", "fulfilled", "refunded"];
  return ["reserved", "processing", "fulfilled"];
}

const FINAL = new Set(["fulfilled", "failed", "refunded"]);
const SR_STATE: Record<StepState, string> = { done: "done", current: "current step", upcoming: "not yet" };

/**
 * Reserved → processing → fulfilled, as an ordered list (screen readers hear each step and
 * its state; colour is never the only signal). A final state is drawn as reached, not pending.
 */
export function OrderProgress({ status }: { status: string }) {
  const steps = stepsFor(status);
  const at = Math.max(steps.indexOf(status as OrderStatus), 0);
  return (
    <ol aria-label="Order progress" className="flex flex-wrap items-center gap-x-2 gap-y-2" data-testid="order-progress">
      {steps.map((step, i) => {
        const state: StepState = i < at || (i === at && FINAL.has(step)) ? "done" : i === at ? "current" : "upcoming";
        const bad = step === "failed";
        const circle =
          state === "upcoming"
            ? "bg-white text-slate-400 ring-1 ring-inset ring-slate-300"
            : bad
              ? "bg-red-600 text-white"
              : state === "done"
                ? step === "refunded"
                  ? "bg-amber-500 text-white"
                  : "bg-emerald-600 text-white"
                : "bg-brand-600 text-white";
        return (
          <li
            key={step}
            className="flex items-center gap-2"
            aria-current={i === at ? "step" : undefined}
            data-step={step}
            data-state={state}
          >
            {i > 0 ? (
              <span
                aria-hidden="true"
                className={`h-0.5 w-8 sm:w-14 ${i <= at ? (bad ? "bg-red-300" : "bg-emerald-300") : "bg-slate-200"}`}
              />
            ) : null}
            <span
              aria-hidden="true"
              className={`flex h-7 w-7 items-center justify-center rounded-full text-xs font-semibold ${circle} ${state === "current" ? "motion-safe:animate-pulse" : ""}`}
            >
              {bad ? "✕" : state === "done" ? "✓" : i + 1}
            </span>
            <span
              className={`text-sm ${state === "upcoming" ? "text-slate-500" : bad ? "font-medium text-red-700" : "font-medium text-slate-900"}`}
            >
              {ORDER_STATUS_LABELS[step]}
              <span className="sr-only"> ({SR_STATE[state]})</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
