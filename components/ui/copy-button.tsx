"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * Copies a value to the clipboard and says so; where the clipboard is refused, asks to copy by hand.
 * `name` is the accessible name where several copy buttons share a page; `what` names the value in the fallback.
 */
export function CopyButton({
  value,
  label = "Copy",
  name,
  what = "the address",
  testId = "copy-address",
}: {
  value: string;
  label?: string;
  name?: string;
  what?: string;
  testId?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        type="button"
        variant="secondary"
        onClick={copy}
        aria-label={name}
        data-testid={testId}
        className={name ? "px-2.5 py-1 text-xs" : ""}
      >
        {label}
      </Button>
      <span aria-live="polite" className="text-xs text-slate-600" data-testid={`${testId}-status`}>
        {state === "copied" ? "Copied." : state === "failed" ? `Copying was refused: select ${what} and copy it.` : ""}
      </span>
    </span>
  );
}
