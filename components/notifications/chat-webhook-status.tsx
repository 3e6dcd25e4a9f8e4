"use client";

import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";
import type { ChatWebhookHealth } from "@/lib/notifications/chat-health";

/**
 * Beside the saved webhook: whether its messages are failing (from the outbox, in words, with
 * when it last failed) and "Send a test message", which posts one at once and says what the
 * chat service answered.
 */
export function ChatWebhookStatus({ health, canEdit }: { health: ChatWebhookHealth; canEdit: boolean }) {
  const router = useRouter();
  const test = useApiMutation<{ sent: true } | { sent: false; problem: string }>(
    () => ({ method: "POST", url: "/api/settings/notifications/chat-test", body: {} }),
    { onSuccess: () => router.refresh() },
  );
  return (
    <div className="space-y-3" data-testid="chat-webhook-status">
      {health.failing ? (
        <Notice
          tone="error"
          title={`Chat messages are failing: the last one failed at ${utcTime(health.failing.at)}`}
          testId="chat-webhook-failing"
        >
          {health.failing.words}{" "}
          {health.failing.retrying ? "It is tried again on its own." : "Failed messages can be sent again from the outbox."}
        </Notice>
      ) : null}
      {canEdit ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" disabled={test.pending} onClick={() => test.send()}>
            {test.pending ? "Sending…" : "Send a test message"}
          </Button>
          <span aria-live="polite" className="text-sm" data-testid="chat-test-result">
            {test.data?.sent === true ? (
              <span className="text-emerald-800">Sent: look for it in the channel.</span>
            ) : test.data?.sent === false ? (
              <span className="text-red-700">Not sent. {test.data.problem}</span>
            ) : null}
          </span>
        </div>
      ) : null}
      {test.problem ? (
        <Notice tone="error" correlationId={test.problem.correlationId}>
          {test.problem.detail}
        </Notice>
      ) : null}
    </div>
  );
}
