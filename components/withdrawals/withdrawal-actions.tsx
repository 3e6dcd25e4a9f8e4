"use client";

import { DecisionPanel, type Decision } from "@/components/ui/decision-panel";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";
import { destinationNamed, UNNAMED_DESTINATION } from "@/lib/withdrawals/payout-destination";
import { money } from "./format";

/**
 * Approve / reject (approvers other than the requester) and cancel (finance, approvers).
 * Each asks once more, with the amount spelled out, before it acts; the server checks
 * everything again (own request, expiry, state, a named destination). `payoutName`: where it is
 * paid, as named in Settings ("" when not named: approving waits for it; null: not known here).
 */
export function WithdrawalActions({ withdrawal, payoutName }: { withdrawal: WithdrawalView; payoutName: string | null }) {
  const { actions, id } = withdrawal;
  const amount = money(withdrawal.amount, withdrawal.currency);
  const to = payoutName ? ` to ${payoutName}` : "";
  const decisions: Decision[] = [];
  if (actions.approve)
    decisions.push({
      key: "approve",
      open: { label: "Approve…" },
      question: `Approve paying out ${amount}${to}? The app sends it to the Issuing Service at once.`,
      confirming: `Approve the withdrawal of ${amount}${to} (${money(withdrawal.netAmount, withdrawal.currency)} arrives after the fee)`,
      unavailable: payoutName !== null && !destinationNamed(payoutName) ? UNNAMED_DESTINATION : undefined,
      comment: "optional",
      confirm: { label: "Approve and send" },
      url: `/api/withdrawals/${id}/approval`,
    });
  if (actions.reject)
    decisions.push({
      key: "reject",
      open: { label: "Reject…", variant: "secondary" },
      question: `Reject the withdrawal of ${amount}? It will never be sent.`,
      confirming: `Reject the withdrawal of ${amount}`,
      comment: "required",
      confirm: { label: "Reject", variant: "danger" },
      url: `/api/withdrawals/${id}/rejection`,
    });
  if (actions.cancel)
    decisions.push({
      key: "cancel",
      open: { label: "Cancel withdrawal…", variant: "ghost" },
      question:
        withdrawal.state === "requested"
          ? `Cancel the withdrawal of ${amount} at the Issuing Service? Possible until it is paid.`
          : `Cancel the request for ${amount}? Nothing has been sent yet.`,
      confirming: `Cancel the withdrawal of ${amount}`,
      comment: "none",
      confirm: { label: "Cancel withdrawal", variant: "danger" },
      url: `/api/withdrawals/${id}/cancellation`,
    });
  return (
    <DecisionPanel
      testId="withdrawal-actions"
      commentId={`comment-${id}`}
      requiredCommentMessage="Say why it is rejected; the requester sees this."
      decisions={decisions}
    />
  );
}
