"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { callApi, type ApiProblem } from "@/components/api-client";
import { Button } from "@/components/ui/button";

/** Sends one failed or unknown-kind event back to the queue, then refreshes the list. */
export function ReprocessButton({ eventId }: { eventId: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [queued, setQueued] = useState(false);

  async function reprocess() {
    setPending(true);
    const result = await callApi("POST", `/api/events/${eventId}/reprocess`);
    setPending(false);
    if (!result.ok) return setProblem(result.problem);
    setProblem(null);
    setQueued(true);
    router.refresh();
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" disabled={pending || queued} onClick={reprocess} data-testid={`reprocess-${eventId}`}>
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
