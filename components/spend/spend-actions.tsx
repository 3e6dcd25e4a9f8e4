"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

/** Approve (the order is then placed at this total) or reject with a comment. The server checks everything again. */
export function SpendActions({ id, total }: { id: string; total: string }) {
  const router = useRouter();
  const [mode, setMode] = useState<null | "approve" | "reject">(null);
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string | null>(null);
  const decide = useApiMutation(
    ({ mode, comment }: { mode: "approve" | "reject"; comment: string }) => ({
      method: "POST",
      url: `/api/spend-requests/${id}/${mode === "approve" ? "approval" : "rejection"}`,
      body: { comment },
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

  function act() {
    if (!mode) return;
    if (mode === "reject" && !comment.trim()) return setCommentError("Say why it is rejected; the buyer sees this.");
    setCommentError(null);
    decide.send({ mode, comment });
  }

  return (
    <div className="space-y-3" data-testid="spend-actions">
      {problem && !problem.errors?.comment ? (
        <Notice tone="error" title={problem.title} correlationId={problem.correlationId}>
          {problem.detail}
        </Notice>
      ) : null}
      {mode === null ? (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setMode("approve")}>Approve…</Button>
          <Button variant="secondary" onClick={() => setMode("reject")}>
            Reject…
          </Button>
        </div>
      ) : (
        <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
          <p className="text-sm text-slate-800">
            {mode === "approve"
              ? `Approve spending ${total}? It is placed at once, never above this total.`
              : `Reject spending ${total}? It will never be sent.`}
          </p>
          <TextAreaField
            label={mode === "reject" ? "Why is it rejected?" : "Comment (optional)"}
            name="comment"
            id={`comment-${id}`}
            rows={2}
            maxLength={500}
            value={comment}
            onChange={(e) => (setComment(e.target.value), setCommentError(null))}
            error={commentError ? [commentError] : problem?.errors?.comment}
          />
          <div className="flex gap-2">
            <Button onClick={act} disabled={busy}>
              {busy ? "Working…" : mode === "approve" ? "Approve and place" : "Reject"}
            </Button>
            <Button variant="ghost" onClick={() => setMode(null)} disabled={busy}>
              Back
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
