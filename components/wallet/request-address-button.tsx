"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { callApi, type ApiProblem } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** Finance asks the Issuing Service for the permanent deposit address; the page then shows it. */
export function RequestAddressButton() {
  const router = useRouter();
  const request = useMutation<unknown, ApiProblem>({
    mutationFn: async () => {
      const result = await callApi("PUT", "/api/wallet/deposit-address");
      if (!result.ok) throw result.problem;
      return result.data;
    },
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="space-y-3">
      <Button
        type="button"
        onClick={() => request.mutate()}
        disabled={request.isPending || request.isSuccess}
        data-testid="request-deposit-address"
      >
        {request.isPending ? "Requesting…" : "Request deposit address"}
      </Button>
      {request.error ? (
        <Notice
          tone="error"
          title="The address could not be requested"
          correlationId={request.error.correlationId}
          testId="request-deposit-address-error"
        >
          {request.error.detail}
        </Notice>
      ) : null}
    </div>
  );
}
