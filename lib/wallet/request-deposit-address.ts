import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { spentBy, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { DEPOSIT_ADDRESS_CACHE_KEY, toAddressView, type DepositAddressView } from "./deposit-address";

/**
 * Finance asks the Issuing Service for the workspace's permanent BSC-USD deposit address
 * (PUT: created the first time, the same address after). Audited either way: the answer
 * with its correlation id, or the refusal. The address is public by design, so it is in
 * the audit row; nothing secret is.
 */
export async function requestDepositAddress(actor: Actor): Promise<DepositAddressView & { created: boolean }> {
  assertCan(actor, "wallet.deposit-address");
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
  upstream().cache.invalidate(DEPOSIT_ADDRESS_CACHE_KEY);
  return { ...view, created };
}
