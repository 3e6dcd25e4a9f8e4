"use client";

import { useState } from "react";

/**
 * next-auth's client is loaded on the click, not with every page: the shell is on every page
 * and the button is rarely pressed.
 */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        const { signOut } = await import("next-auth/react");
        await signOut({ redirect: false });
        // A full page load, so that nothing of the ended session stays in client memory.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        window.location.assign("/signin");
      }}
      className="w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100"
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
