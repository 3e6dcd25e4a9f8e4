"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { clearPending, loadPending, savePending, type PendingSubmission } from "./pending-submission";
import { clearDraft } from "./order-draft";

/** 201/200: the order; 202: held for an approver (lib/spend). */
type Placed = { order?: { id: string }; awaitingApproval?: { id: string } };

/** Refusals after which the order may still exist: its key is kept for the retry. */
const OUTCOME_UNKNOWN = new Set(["outcome_unknown", "network_error", "upstream_unavailable"]);

/**
 * Sends an order under an idempotency key that belongs to the order's exact content: a
 * double click, a retry after an error, or a reload during submit (the key waits in
 * sessionStorage) all resend the same request, so there is only ever one order.
 */
export function usePlaceOrder(productId: string) {
  const router = useRouter();
  const [resuming, setResuming] = useState(false);
  const keys = useRef(new Map<string, string>());
  const order = useApiMutation<Placed, PendingSubmission>(
    ({ key, body }) => ({ method: "POST", url: "/api/orders", body: { ...body, idempotencyKey: key } }),
    {
      onSuccess: (placed) => {
        clearPending(productId);
        // Placed (or sent for approval): what was typed for it is done with.
        clearDraft(productId);
        if (placed.awaitingApproval) router.push(`/spend-approvals?submitted=${encodeURIComponent(placed.awaitingApproval.id)}`);
        else if (placed.order) router.push(`/orders/${encodeURIComponent(placed.order.id)}`);
      },
      // Keep the pending key only while the outcome is unknown; a refusal is final.
      onError: (problem) => {
        if (!OUTCOME_UNKNOWN.has(problem.code)) clearPending(productId);
      },
    },
  );
  const { settle } = order;

  const send = useCallback(
    (key: string, body: Record<string, unknown>) => {
      const submission = { key, body, at: Date.now() };
      savePending(productId, submission);
      return settle(submission);
    },
    [productId, settle],
  );

  const place = useCallback(
    (body: Record<string, unknown>) => {
      const fingerprint = JSON.stringify(body);
      let key = keys.current.get(fingerprint);
      if (!key) {
        key = crypto.randomUUID();
        keys.current.set(fingerprint, key);
      }
      return send(key, body);
    },
    [send],
  );

  // A submit interrupted by a reload: finish it with the same key.
  useEffect(() => {
    const interrupted = loadPending(productId);
    if (!interrupted) return;
    keys.current.set(JSON.stringify(interrupted.body), interrupted.key);
    // sessionStorage exists only after mount, so this state cannot be known at first render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setResuming(true);
    void send(interrupted.key, interrupted.body).finally(() => setResuming(false));
  }, [productId, send]);

  return {
    place,
    // Still placing after the answer: the order's page (or the approvals page) is on its way.
    pending: order.pending || order.saved,
    problem: order.problem,
    resuming,
    clearProblem: () => {
      if (order.problem) order.reset();
    },
  };
}
