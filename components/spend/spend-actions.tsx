"use client";

import { DecisionPanel } from "@/components/ui/decision-panel";

/** Approve (the order is then placed at this total) or reject with a comment. The server checks everything again. */
export function SpendActions({ id, total }: { id: string; total: string }) {
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
          comment: "optional",
          confirm: { label: "Approve and place" },
          url: `/api/spend-requests/${id}/approval`,
        },
        {
          key: "reject",
          open: { label: "Reject…", variant: "secondary" },
          question: `Reject spending ${total}? It will never be sent.`,
          comment: "required",
          confirm: { label: "Reject", variant: "danger" },
          url: `/api/spend-requests/${id}/rejection`,
        },
      ]}
    />
  );
}
