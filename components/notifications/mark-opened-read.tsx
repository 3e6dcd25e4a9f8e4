"use client";

import { useEffect } from "react";
import { usePathname } from "next/navigation";
import { callApi } from "@/components/api-client";
import { recordRead } from "./bell-figure";

/**
 * Rendered while something is unread: each page opened (from the inbox, an email, anywhere)
 * reads the notifications that lead to it, and the bells take them off their figure (recordRead).
 */
export function MarkOpenedRead() {
  const pathname = usePathname();
  useEffect(() => {
    const { pathname: path, search, hash } = window.location;
    // Told even if the person has moved on meanwhile: they were read all the same.
    void callApi<{ marked: number; at: number }>("POST", "/api/notifications/opened", { link: `${path}${search}${hash}` }).then(
      (result) => {
        if (result.ok && result.data.marked > 0) recordRead(result.data.marked, result.data.at);
      },
    );
  }, [pathname]);
  return null;
}
