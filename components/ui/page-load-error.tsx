"use client";

import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** A page's data could not be read (database unreachable, a bug): say so, offer a retry, give a reference. */
export function PageLoadError({
  error,
  retry,
  title,
  testId,
}: {
  error: unknown;
  retry: () => void;
  title: string;
  testId: string;
}) {
  // Server errors reach the browser without their message; the digest matches the server's log line.
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  return (
    <div className="space-y-3" data-testid={testId}>
      <Notice tone="error" title={title} correlationId={digest}>
        Something went wrong on our side. Try again; if it keeps happening, quote the reference below to support.
      </Notice>
      <Button type="button" variant="secondary" onClick={() => retry()}>
        Try again
      </Button>
    </div>
  );
}
