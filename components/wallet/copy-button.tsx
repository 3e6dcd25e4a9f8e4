"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies a value to the clipboard and says so; where the clipboard is refused, asks to copy by hand. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
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
      <Button type="button" variant="secondary" onClick={copy} data-testid="copy-address">
        {label}
      </Button>
      <span aria-live="polite" className="text-xs text-slate-600" data-testid="copy-status">
        {state === "copied" ? "Copied." : state === "failed" ? "Copying was refused: select the address and copy it." : ""}
      </span>
    </span>
  );
}
