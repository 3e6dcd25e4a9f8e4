"use client";

import { DecisionPanel, type Decision } from "@/components/ui/decision-panel";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";
import { money } from "./format";

/**
 * Approve / reject (approvers other than the requester) and cancel (finance, approvers).
 * Each asks once more, with the amount spelled out, before it acts; the server checks
 * everything again (own request, expiry, state).
 */
export function WithdrawalActions({ withdrawal }: { withdrawal: WithdrawalView }) {
  const { actions, id } = withdrawal;
  const amount = money(withdrawal.amount, withdrawal.currency);
  const decisions: Decision[] = [];
  if (actions.approve)
    decisions.push({
      key: "approve",
      open: { label: "Approve…" },
      question: `Approve paying out ${amount}? The app sends it to the Issuing Service at once.`,
      comment: "optional",
      confirm: { label: "Approve and send" },
      url: `/api/withdrawals/${id}/approval`,
    });
  if (actions.reject)
    decisions.push({
      key: "reject",
      open: { label: "Reject…", variant: "secondary" },
      question: `Reject the withdrawal of ${amount}? It will never be sent.`,
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
