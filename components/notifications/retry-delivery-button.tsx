"use client";

import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";

/** Sends one failed delivery again, then refreshes the outbox. */
export function RetryDeliveryButton({ deliveryId }: { deliveryId: string }) {
  const router = useRouter();
  const retry = useApiMutation(() => ({ method: "POST", url: `/api/notifications/deliveries/${deliveryId}/retry`, body: {} }), {
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" disabled={retry.pending || retry.saved} onClick={() => retry.send()}>
        {retry.saved ? "Queued" : retry.pending ? "Queuing…" : "Send again"}
      </Button>
      {retry.problem ? (
        <p role="alert" className="max-w-xs text-right text-xs text-red-700">
          {retry.problem.detail}
          {retry.problem.correlationId ? (
            <span className="block font-mono opacity-80">ref {retry.problem.correlationId}</span>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
