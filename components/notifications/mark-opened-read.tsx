"use client";

import { useEffect } from "react";
import { usePathname } from "next/navigation";
import { callApi } from "@/components/api-client";
import { READ_EVENT } from "./bell-figure";

/**
 * Rendered while something is unread: each page opened (from the inbox, an email, anywhere)
 * reads the notifications that lead to it, and the bells take them off their figure (READ_EVENT).
 */
export function MarkOpenedRead() {
  const pathname = usePathname();
  useEffect(() => {
    const { pathname: path, search, hash } = window.location;
    // Told even if the person has moved on meanwhile: they were read all the same.
    void callApi<{ marked: number }>("POST", "/api/notifications/opened", { link: `${path}${search}${hash}` }).then((result) => {
      if (result.ok && result.data.marked > 0) window.dispatchEvent(new CustomEvent(READ_EVENT, { detail: result.data.marked }));
    });
  }, [pathname]);
  return null;
}
