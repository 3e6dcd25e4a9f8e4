"use client";

import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { callApi, type ApiProblem } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import type { OrderDetail } from "@/lib/orders/get-order";
import { OPEN_STATUSES, orderStatusLabel, type OrderStatus } from "@/lib/orders/states";
import { OrderProgress } from "./order-progress";
import { utcTime } from "@/components/ui/utc-time";

type LiveOrder = Pick<OrderDetail, "id" | "status" | "createdAt" | "updatedAt">;

const FAST_MS = 1_500;
const SLOW_MS = 10_000;
/** After about two minutes of fast polling an order that is still open, poll gently. */
const FAST_POLLS = 80;

const EXPLAIN: Record<OrderStatus, string> = {
  reserved: "The Issuing Service has reserved the amount in the wallet and is preparing the order.",
  processing: "The Issuing Service is fulfilling the order.",
  fulfilled: "The order is delivered. Codes are not shown here: revealing them is a separate, audited support step.",
  failed: "The Issuing Service could not fulfil this order. The reserved amount was released back to the wallet.",
  refunded: "The order was refunded: the amount went back to the wallet.",
};

class ProblemError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.detail);
  }
}

async function fetchOrder(id: string): Promise<LiveOrder> {
  const result = await callApi<OrderDetail>("GET", `/api/orders/${encodeURIComponent(id)}`);
  if (!result.ok) throw new ProblemError(result.problem);
  return result.data;
}

const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);

/**
 * The order's status, kept current by polling this app's route handler (which reads the
 * mirror; webhooks keep the mirror fresh) while the order is open, and stopping once it
 * reaches a final state.
 */
export function OrderStatusLive({ initial }: { initial: LiveOrder }) {
  const router = useRouter();
  const query = useQuery({
    queryKey: ["order", initial.id],
    queryFn: () => fetchOrder(initial.id),
    initialData: initial,
    refetchInterval: (q) => {
      const status = q.state.data?.status ?? initial.status;
      if (!isOpen(status)) return false;
      return q.state.dataUpdateCount + q.state.errorUpdateCount > FAST_POLLS ? SLOW_MS : FAST_MS;
    },
  });
  const order = query.data;
  const status = order.status;
  const open = isOpen(status);

  // When the status moves, re-render the server parts too (an early, thinner read may lack lines).
  const shown = useRef(initial.status);
  useEffect(() => {
    if (shown.current === status) return;
    shown.current = status;
    router.refresh();
  }, [status, router]);

  const slow = open && query.dataUpdatedAt - Date.parse(order.createdAt) > 120_000;
  const problem = query.error instanceof ProblemError ? query.error.problem : null;

  return (
    <div className="space-y-4">
      <OrderProgress status={status} />
      <div role="status" aria-live="polite" aria-atomic="true">
        <p className="text-sm text-slate-700">
          Status:{" "}
          <strong className="font-semibold text-slate-900" data-testid="order-status" data-status={status}>
            {orderStatusLabel(status)}
          </strong>
          {open ? <span className="ml-2 text-xs text-slate-500">(updating live)</span> : null}
        </p>
        <p className="mt-1 text-sm text-slate-600">{EXPLAIN[status as OrderStatus] ?? ""}</p>
        {slow ? (
          <p className="mt-1 text-sm text-amber-800">
            This is taking longer than usual. The page keeps checking; you can also leave and come back.
          </p>
        ) : null}
      </div>
      {query.isError && problem?.code !== "not_found" ? (
        <Notice tone="warning" title="Could not refresh the status" correlationId={problem?.correlationId}>
          {problem?.detail ?? "The server could not be reached."} {open ? "Retrying automatically." : null}
        </Notice>
      ) : null}
      <p className="text-xs text-slate-500">
        Last change at the Issuing Service: <time dateTime={order.updatedAt}>{utcTime(order.updatedAt, "second")}</time>
      </p>
    </div>
  );
}
