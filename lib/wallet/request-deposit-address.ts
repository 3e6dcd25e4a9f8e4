import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { ENDPOINTS } from "@/lib/upstream/client";
import { spentBy, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { workerOnly } from "@/lib/upstream/worker-only";
import { DEPOSIT_ADDRESS_CACHE_KEY, toAddressView, type DepositAddressView } from "./deposit-address";

type Requested = DepositAddressView & { created: boolean };

/**
 * Finance asks the Issuing Service for the workspace's permanent BSC-USD deposit address
 * (PUT: created the first time, the same address after). Audited either way: the answer
 * with its correlation id, or the refusal. The address is public by design, so it is in
 * the audit row; nothing secret is. The PUT needs the payout key's
 * `wallet.deposit-address.write`, so a web process without it has the worker make it
 * (lib/upstream/worker-only.ts); the person waits a few seconds longer, nothing else changes.
 */
export async function requestDepositAddress(actor: Actor): Promise<Requested> {
  assertCan(actor, "wallet.deposit-address");
  const answer = await depositAddressTask.call({ actor });
  if (answer.waiting) {
    throw new AppError(
      "upstream_unavailable",
      "The deposit address is still being requested. Reload the wallet page in a minute to see it.",
      { status: 503, extra: { retryAfterSeconds: 30 } },
    );
  }
  upstream().cache.invalidate(DEPOSIT_ADDRESS_CACHE_KEY);
  return answer.value;
}

export const depositAddressTask = workerOnly({
  queue: "wallet.deposit-address",
  scope: ENDPOINTS.requestDepositAddress.scope,
  run: ({ actor }: { actor: Actor }) => putDepositAddress(actor),
});

async function putDepositAddress(actor: Actor): Promise<Requested> {
  let answer;
  try {
    answer = await upstream().requestDepositAddress({ priority: "interactive", by: spentBy(actor) });
  } catch (error) {
    const failure = upstreamFailure(error);
    const reason = failure ? `${failure.code} (HTTP ${failure.status})` : "no answer";
    await db().$transaction((tx) =>
      recordAudit(tx, {
        action: "wallet.deposit_address_request_failed",
        actor,
        targetId: "bsc-usd",
        correlationId: failure ? failure.correlationId : null,
        details: { reason },
      }),
    );
    throw error;
  }
  const view = toAddressView(answer.data);
  const created = answer.status === 201;
  await db().$transaction((tx) =>
    recordAudit(tx, {
      action: "wallet.deposit_address_request",
      actor,
      targetId: view.address,
      correlationId: answer.correlationId,
      details: { network: view.network, asset: view.asset, created },
    }),
  );
  return { ...view, created };
}
