"use client";

import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";

/** Sends one failed or unknown-kind event back to the queue, then refreshes the list. */
export function ReprocessButton({ eventId }: { eventId: string }) {
  const router = useRouter();
  const reprocess = useApiMutation(() => ({ method: "POST", url: `/api/events/${eventId}/reprocess` }), {
    onSuccess: () => router.refresh(),
  });
  const { pending, problem, saved: queued } = reprocess;

  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        disabled={pending || queued}
        onClick={() => reprocess.send()}
        data-testid={`reprocess-${eventId}`}
      >
        {queued ? "Queued" : pending ? "Queuing…" : "Reprocess"}
      </Button>
      {problem ? (
        <p role="alert" className="max-w-xs text-right text-xs text-red-700">
          {problem.detail}
          {problem.correlationId ? <span className="block font-mono opacity-80">ref {problem.correlationId}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
