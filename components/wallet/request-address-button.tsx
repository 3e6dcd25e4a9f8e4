"use client";

import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** Finance asks the Issuing Service for the permanent deposit address; the page then shows it. */
export function RequestAddressButton() {
  const router = useRouter();
  const request = useApiMutation(() => ({ method: "PUT", url: "/api/wallet/deposit-address" }), {
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="space-y-3">
      <Button
        type="button"
        onClick={() => request.send()}
        disabled={request.pending || request.saved}
        data-testid="request-deposit-address"
      >
        {request.pending ? "Requesting…" : "Request deposit address"}
      </Button>
      {request.problem ? (
        <Notice
          tone="error"
          title="The address could not be requested"
          correlationId={request.problem.correlationId}
          testId="request-deposit-address-error"
        >
          {request.problem.detail}
        </Notice>
      ) : null}
    </div>
  );
}
