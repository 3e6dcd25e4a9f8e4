import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { parseMinor } from "@/lib/money";
import { getSettings } from "@/lib/settings/get-settings";
import { spentBy } from "@/lib/upstream/service";
import { balanceAfter, type BalancesAfter } from "@/lib/wallet/balance-after";
import { tryReadCurrentBalances } from "@/lib/wallet/current-balances";
import type { WithdrawalView } from "./withdrawal-view";

/** What an approver weighs beside a waiting withdrawal: where it is paid, and the wallet after it. */
export type WithdrawalApprovalFacts = {
  /** The payout details' name as an admin entered it in Settings; empty when not named. */
  payoutName: string;
  /** Per waiting request id; none when this person may not read the wallet. */
  balances: Record<string, BalancesAfter>;
};

/**
 * For the waiting (pending) requests among `items`: the payout details' name (the Issuing Service
 * pays only to the details registered on the workspace, and its API never names them: Settings
 * holds the name an admin reads off the merchant dashboard) and the available balance now and
 * after the whole amount leaves it (the amount is held at request; the fee comes out of it). The
 * balance is the shared read, read again if the wallet moved since; unreadable, it is said so.
 */
export async function withdrawalApprovalFacts(actor: Actor, items: WithdrawalView[]): Promise<WithdrawalApprovalFacts | null> {
  const waiting = items.filter((w) => w.state === "pending");
  if (waiting.length === 0) return null;
  const [settings, read] = await Promise.all([
    getSettings(),
    can(actor.roles, "wallet.read") ? tryReadCurrentBalances({ by: spentBy(actor) }) : undefined,
  ]);
  const balances: Record<string, BalancesAfter> = {};
  if (read !== undefined)
    for (const w of waiting)
      balances[w.id] = read
        ? {
            kind: "read",
            readAt: read.readAt,
            updating: read.updating,
            items: [balanceAfter(read, w.currency, parseMinor(w.amount, w.currency))],
          }
        : { kind: "unavailable" };
  return { payoutName: settings.payoutDetailsName, balances };
}
