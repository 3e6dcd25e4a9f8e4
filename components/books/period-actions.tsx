"use client";

import { DecisionPanel, type Decision } from "@/components/ui/decision-panel";
import type { PeriodView } from "@/lib/books/list-periods";

/** Lock, ask to reopen, approve a reopening: each asks once more before it acts; the server checks everything again. */
export function PeriodActions({ period, label }: { period: PeriodView; label: string }) {
  const url = (verb: string) => `/api/books/periods/${period.period}/${verb}`;
  const decisions: Decision[] = [];
  if (period.actions.lock)
    decisions.push({
      key: "lock",
      open: { label: "Lock month…", variant: "secondary" },
      question: `Lock ${label}? Its journal is kept as it is now; anything that reaches the app later for it is booked in the next open month, marked late.`,
      confirming: `Lock ${label}`,
      comment: "none",
      confirm: { label: `Lock ${label}` },
      url: url("lock"),
    });
  if (period.actions.requestReopen)
    decisions.push({
      key: "reopen",
      open: { label: "Ask to reopen…", variant: "secondary" },
      question: `Ask to reopen ${label}? It stays locked until someone else in finance approves.`,
      confirming: `Ask to reopen ${label}`,
      comment: "required",
      commentLabel: "Why must it be reopened?",
      confirm: { label: "Ask to reopen" },
      url: url("reopen-request"),
    });
  if (period.actions.approveReopen)
    decisions.push({
      key: "approve",
      open: { label: "Approve reopening…" },
      question: `Reopen ${label}? Its journal is read live again and may change.`,
      confirming: `Reopen ${label}`,
      comment: "none",
      confirm: { label: `Reopen ${label}`, variant: "danger" },
      url: url("reopen-approval"),
    });
  if (!decisions.length) return null;
  return (
    <DecisionPanel
      testId={`period-actions-${period.period}`}
      commentId={`reason-${period.period}`}
      requiredCommentMessage="Say why the month must be reopened; whoever approves sees this."
      decisions={decisions}
    />
  );
}
