import type { BackgroundWork } from "@/lib/jobs/background-work";
import type { WithdrawalView } from "./withdrawal-view";

export const WAITING_TO_BE_SENT = "Approved, waiting to be sent";

/**
 * The worker sends approved withdrawals: while background work is stopped, an approved one says
 * it waits rather than a plain "Approved" that reads as done. It is sent once when a worker runs again.
 */
export function markWaitingForWorker(view: WithdrawalView, work: BackgroundWork): WithdrawalView {
  if (work.running || view.state !== "approved") return view;
  return { ...view, stateLabel: WAITING_TO_BE_SENT, waitsForBackgroundWork: true };
}
