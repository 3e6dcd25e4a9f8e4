import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { ENDPOINTS } from "@/lib/upstream/client";
import { workerOnly } from "@/lib/upstream/worker-only";
import { cancelHeldWithdrawal } from "./cancel-withdrawal";
import { sendApprovedWithdrawal } from "./send-withdrawal";

/**
 * The withdrawal calls that need the payout key (`wallet.withdraw`), which only the worker
 * holds in a least-privilege setup (lib/upstream/worker-only.ts): sending an approved request
 * and cancelling one held upstream. A web process without the key hands them to the worker and
 * waits for the outcome; each checks the request's state again where it runs.
 */
export const sendApproved = workerOnly({
  queue: "withdrawals.send",
  scope: ENDPOINTS.createWithdrawal.scope,
  run: async ({ id, actor }: { id: string; actor: Actor }) => {
    await sendApprovedWithdrawal(id, { actor, priority: "interactive" });
    return null;
  },
});

export const cancelHeld = workerOnly({
  queue: "withdrawals.cancel",
  scope: ENDPOINTS.cancelWithdrawal.scope,
  run: async ({ id, actor }: { id: string; actor: Actor }) => {
    await cancelHeldWithdrawal(actor, id);
    return null;
  },
});
