"use client";

import { PageLoadError } from "@/components/ui/page-load-error";

/** Orders could not be read: say so, offer a retry, give a reference. */
export default function OrdersError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageLoadError error={error} retry={retry} title="The orders could not be loaded" testId="orders-error" />;
}
