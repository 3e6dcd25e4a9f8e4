"use client";

import { DecisionPanel } from "@/components/ui/decision-panel";

/**
 * Approve (the order is then placed at this total) or reject with a comment. The server checks
 * everything again. `bought` names what it buys ("the order of 2 × Amazon US $25"), for the
 * step-up prompt, which must say what is confirmed.
 */
export function SpendActions({ id, total, bought }: { id: string; total: string; bought: string }) {
  return (
    <DecisionPanel
      testId="spend-actions"
      commentId={`comment-${id}`}
      requiredCommentMessage="Say why it is rejected; the buyer sees this."
      decisions={[
        {
          key: "approve",
          open: { label: "Approve…" },
          question: `Approve spending ${total}? It is placed at once, never above this total.`,
          confirming: `Approve ${bought} for ${total}`,
          comment: "optional",
          confirm: { label: "Approve and place" },
          url: `/api/spend-requests/${id}/approval`,
        },
        {
          key: "reject",
          open: { label: "Reject…", variant: "secondary" },
          question: `Reject spending ${total}? It will never be sent.`,
          confirming: `Reject ${bought} for ${total}`,
          comment: "required",
          confirm: { label: "Reject", variant: "danger" },
          url: `/api/spend-requests/${id}/rejection`,
        },
      ]}
    />
  );
}
