"use client";

import { useState } from "react";
import { useApiMutation } from "@/components/use-api-mutation";

/**
 * One click to watch a product (or stop): the catalog's cards and the product page. `watchId`
 * is the person's watch of it, or null. A refusal shows under the button, in words.
 */
export function WatchButton({
  productId,
  productName,
  watchId: initial,
  className = "",
}: {
  productId: string;
  productName: string;
  watchId: string | null;
  className?: string;
}) {
  const [watchId, setWatchId] = useState(initial);
  const toggle = useApiMutation<{ id: string } | null, string | null>(
    (current) =>
      current
        ? { method: "DELETE", url: `/api/catalog/watches/${encodeURIComponent(current)}` }
        : { method: "POST", url: "/api/catalog/watches", body: { productId } },
    { onSuccess: (data) => setWatchId(data?.id ?? null) },
  );
  const watching = watchId !== null;
  return (
    <div className={className}>
      <button
        type="button"
        title={
          watching
            ? "You hear when its price or availability changes. Click to stop."
            : "Hear when its price or availability changes"
        }
        disabled={toggle.pending}
        onClick={() => toggle.send(watchId)}
        className={`rounded-md px-2 py-1 text-xs font-semibold shadow-sm ring-1 ring-inset transition-colors disabled:opacity-60 ${
          watching
            ? "bg-brand-600 text-white ring-brand-600 hover:bg-brand-700"
            : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50"
        }`}
        data-testid="watch-button"
      >
        {/* Its name says its state ("Watching …"), in the words shown, for speech input too. */}
        <span aria-hidden="true">{watching ? "★" : "☆"}</span> {watching ? "Watching" : "Watch"}
        <span className="sr-only"> {productName}</span>
      </button>
      {toggle.problem ? (
        <p role="alert" className="mt-1 max-w-48 rounded bg-white px-1 text-xs text-red-700">
          {toggle.problem.detail ?? "Not saved; try again."}
        </p>
      ) : null}
    </div>
  );
}
