"use client";

import { useState, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * next-auth's client is loaded on the click, not with every page: the shell is on every page
 * and the button is rarely pressed. Until the page has hydrated the button has no handler, so it
 * is shown disabled then: a press that could do nothing is not offered (seen in e2e: a sign-out
 * pressed right after the admin's home appeared left the person signed in).
 */
export function SignOutButton() {
  // false in the server's HTML and while hydrating, true once the handler is attached.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={!hydrated || pending}
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
