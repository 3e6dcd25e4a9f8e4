import type { BackgroundWork } from "@/lib/jobs/background-work";
import type { SpendRequestView } from "./spend-request-view";

export const WAITING_TO_BE_PLACED = "Approved, waiting to be placed";

/**
 * What the worker places once an approval is given: an order whose placing did not finish (the
 * worker's pass settles it under the same key) and a bulk file just approved (its rows are the
 * bulk job's). While background work is stopped, such a request says it waits. `justApproved`:
 * the approval's own answer, where a bulk file's rows cannot have been placed yet.
 */
export function markWaitingForWorker(
  view: SpendRequestView,
  work: BackgroundWork,
  options: { justApproved?: boolean } = {},
): SpendRequestView {
  if (work.running) return view;
  const waits = view.state === "approved" || (options.justApproved === true && view.kind === "bulk" && view.state === "placed");
  return waits ? { ...view, stateLabel: WAITING_TO_BE_PLACED, waitsForBackgroundWork: true } : view;
}
