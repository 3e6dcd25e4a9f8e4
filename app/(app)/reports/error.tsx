"use client";

import { PageLoadError } from "@/components/ui/page-load-error";

/** The report could not be read: say so, offer a retry, give a reference. */
export default function ReportsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageLoadError error={error} retry={retry} title="The spend report could not be loaded" testId="report-error" />;
}
