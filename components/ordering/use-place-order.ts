"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { callApi, type ApiProblem } from "@/components/api-client";
import { clearPending, loadPending, savePending } from "./pending-submission";

/** 201/200: the order; 202: held for an approver (lib/spend). */
type Placed = { order?: { id: string }; awaitingApproval?: { id: string } };

/**
 * Sends an order under an idempotency key that belongs to the order's exact content: a
 * double click, a retry after an error, or a reload during submit (the key waits in
 * sessionStorage) all resend the same request, so there is only ever one order.
 */
export function usePlaceOrder(productId: string) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [resuming, setResuming] = useState(false);
  const keys = useRef(new Map<string, string>());

  const send = useCallback(
    async (key: string, body: Record<string, unknown>) => {
      setPending(true);
      setProblem(null);
      savePending(productId, { key, body, at: Date.now() });
      const result = await callApi<Placed>("POST", "/api/orders", { ...body, idempotencyKey: key });
      if (result.ok) {
        clearPending(productId);
        if (result.data.awaitingApproval)
          router.push(`/spend-approvals?submitted=${encodeURIComponent(result.data.awaitingApproval.id)}`);
        else if (result.data.order) router.push(`/orders/${encodeURIComponent(result.data.order.id)}`);
        return;
      }
      // Keep the pending key only while the outcome is unknown; a refusal is final.
      if (!["outcome_unknown", "network_error", "upstream_unavailable"].includes(result.problem.code)) clearPending(productId);
      setProblem(result.problem);
      setPending(false);
    },
    [productId, router],
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

  return { place, pending, problem, resuming, clearProblem: () => setProblem(null) };
}
