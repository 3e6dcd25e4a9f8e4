"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { RefusalNotice } from "@/components/ui/notice";

/** One decision a checker may take: its button, the question asked before it acts, and where it goes. */
export type Decision = {
  key: string;
  /** The button that opens it ("Approve…"). */
  open: { label: string; variant?: "primary" | "secondary" | "ghost" };
  /** The sentence it asks, with the amount spelled out. */
  question: string;
  /** A comment: asked for and optional, asked for and required (a rejection), or not asked. */
  comment: "optional" | "required" | "none";
  /** The comment field's label, where "Why is it rejected?" / "Comment (optional)" does not fit. */
  commentLabel?: string;
  /** What it does, with its amount, as the step-up prompt names it ("Approve the order of 2 × … for $51.20"). */
  confirming: string;
  /** Why it cannot be taken now: the button is shown disabled, with this beside it. */
  unavailable?: string;
  /** The button that acts ("Approve and send"). */
  confirm: { label: string; variant?: "primary" | "danger" };
  url: string;
};

/**
 * The approve / reject (/ cancel) panel of a maker-checker request (withdrawals, spend
 * approvals): each decision asks once more, with the amount spelled out, and a rejection must
 * say why (at the field, before anything is sent). The server checks everything again (own
 * request, expiry, state); its refusal is shown here.
 */
export function DecisionPanel({
  decisions,
  testId,
  commentId,
  requiredCommentMessage,
}: {
  decisions: Decision[];
  testId: string;
  commentId: string;
  /** What the field says when a required comment is missing ("Say why it is rejected; the buyer sees this."). */
  requiredCommentMessage: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState<Decision | null>(null);
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string | null>(null);
  const decide = useApiMutation(
    ({ decision, comment }: { decision: Decision; comment: string }) => ({
      method: "POST",
      url: decision.url,
      body: decision.comment === "none" ? undefined : { comment },
    }),
    {
      confirming: ({ decision }) => decision.confirming,
      onSuccess: () => {
        setOpen(null);
        setComment("");
        router.refresh();
      },
    },
  );
  const { pending: busy, problem } = decide;
  if (decisions.length === 0) return null;

  function act() {
    if (!open) return;
    if (open.comment === "required" && !comment.trim()) return setCommentError(requiredCommentMessage);
    setCommentError(null);
    decide.send({ decision: open, comment });
  }

  return (
    <div className="space-y-3" data-testid={testId}>
      {problem && !problem.errors?.comment ? <RefusalNotice problem={problem} /> : null}
      {open === null ? (
        <>
          <div className="flex flex-wrap gap-2">
            {decisions.map((d) => (
              <Button
                key={d.key}
                variant={d.open.variant}
                onClick={() => setOpen(d)}
                disabled={d.unavailable !== undefined}
                aria-describedby={d.unavailable !== undefined ? `${commentId}-${d.key}-unavailable` : undefined}
              >
                {d.open.label}
              </Button>
            ))}
          </div>
          {decisions.map((d) =>
            d.unavailable !== undefined ? (
              <p
                key={d.key}
                id={`${commentId}-${d.key}-unavailable`}
                className="text-sm text-slate-700"
                data-testid={`${d.key}-unavailable`}
              >
                {d.unavailable}
              </p>
            ) : null,
          )}
        </>
      ) : (
        <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
          <p className="text-sm text-slate-800">{open.question}</p>
          {open.comment !== "none" ? (
            <TextAreaField
              label={open.commentLabel ?? (open.comment === "required" ? "Why is it rejected?" : "Comment (optional)")}
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
            <Button variant={open.confirm.variant} onClick={act} disabled={busy}>
              {busy ? "Working…" : open.confirm.label}
            </Button>
            <Button variant="secondary" onClick={() => (setOpen(null), decide.reset())} disabled={busy}>
              Back
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
