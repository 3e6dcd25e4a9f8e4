"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";
import { money } from "./format";

type Mode = null | "approve" | "reject" | "cancel";
const PATHS = { approve: "approval", reject: "rejection", cancel: "cancellation" } as const;

/**
 * Approve / reject (approvers other than the requester) and cancel (finance, approvers).
 * Each asks once more, with the amount spelled out, before it acts; the server checks
 * everything again (own request, expiry, state).
 */
export function WithdrawalActions({ withdrawal }: { withdrawal: WithdrawalView }) {
  const router = useRouter();
  const [mode, setMode] = useState<Mode>(null);
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string | null>(null);
  const decide = useApiMutation<WithdrawalView, { mode: NonNullable<Mode>; comment: string }>(
    ({ mode, comment }) => ({
      method: "POST",
      url: `/api/withdrawals/${withdrawal.id}/${PATHS[mode]}`,
      body: mode === "cancel" ? undefined : { comment },
    }),
    {
      onSuccess: () => {
        setMode(null);
        setComment("");
        router.refresh();
      },
    },
  );
  const { pending: busy, problem } = decide;
  const { actions } = withdrawal;
  const amount = money(withdrawal.amount, withdrawal.currency);
  if (!actions.approve && !actions.reject && !actions.cancel) return null;

  function act() {
    if (!mode) return;
    // A rejection needs its reason: say so at the field, before anything is sent.
    if (mode === "reject" && !comment.trim()) return setCommentError("Say why it is rejected; the requester sees this.");
    setCommentError(null);
    decide.send({ mode, comment });
  }

  const commentId = `comment-${withdrawal.id}`;
  return (
    <div className="space-y-3" data-testid="withdrawal-actions">
      {problem && !problem.errors?.comment ? (
        <Notice tone="error" title={problem.title} correlationId={problem.correlationId}>
          {problem.detail}
        </Notice>
      ) : null}
      {mode === null ? (
        <div className="flex flex-wrap gap-2">
          {actions.approve ? <Button onClick={() => setMode("approve")}>Approve…</Button> : null}
          {actions.reject ? (
            <Button variant="secondary" onClick={() => setMode("reject")}>
              Reject…
            </Button>
          ) : null}
          {actions.cancel ? (
            <Button variant="ghost" onClick={() => setMode("cancel")}>
              Cancel withdrawal…
            </Button>
          ) : null}
        </div>
      ) : (
        <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
          <p className="text-sm text-slate-800">
            {mode === "approve"
              ? `Approve paying out ${amount}? The app sends it to the Issuing Service at once.`
              : mode === "reject"
                ? `Reject the withdrawal of ${amount}? It will never be sent.`
                : withdrawal.state === "requested"
                  ? `Cancel the withdrawal of ${amount} at the Issuing Service? Possible until it is paid.`
                  : `Cancel the request for ${amount}? Nothing has been sent yet.`}
          </p>
          {mode !== "cancel" ? (
            <TextAreaField
              label={mode === "reject" ? "Why is it rejected?" : "Comment (optional)"}
              name="comment"
              id={commentId}
              rows={2}
              maxLength={500}
              value={comment}
              onChange={(e) => (setComment(e.target.value), setCommentError(null))}
              error={commentError ? [commentError] : problem?.errors?.comment}
            />
          ) : null}
          <div className="flex gap-2">
            <Button variant={mode === "approve" ? "primary" : "danger"} onClick={act} disabled={busy}>
              {busy ? "Working…" : mode === "approve" ? "Approve and send" : mode === "reject" ? "Reject" : "Cancel withdrawal"}
            </Button>
            <Button variant="secondary" onClick={() => (setMode(null), decide.reset())} disabled={busy}>
              Back
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
