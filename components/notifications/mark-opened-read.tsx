"use client";

import { useEffect } from "react";
import { usePathname, useRouter } from "next/navigation";
import { callApi } from "@/components/api-client";

/**
 * Rendered while something is unread: each page opened (from the inbox, an email, anywhere)
 * reads the notifications that lead to it, and the bell is drawn again when any were.
 */
export function MarkOpenedRead() {
  const pathname = usePathname();
  const router = useRouter();
  useEffect(() => {
    const { pathname: path, search, hash } = window.location;
    let current = true;
    void callApi<{ marked: number }>("POST", "/api/notifications/opened", { link: `${path}${search}${hash}` }).then((result) => {
      if (current && result.ok && result.data.marked > 0) router.refresh();
    });
    return () => {
      current = false;
    };
  }, [pathname, router]);
  return null;
}
