"use client";

import { useEffect, useTransition } from "react";
import { useRouter } from "next/navigation";

/**
 * Client-side navigation for every `Link` (components/ui/link.tsx) on the page, through one
 * listener on the document: a plain left click on an `a[data-app-link]` of this origin goes
 * through Next's router instead of loading a new document. Anything else is left to the
 * browser: a click another handler already handled (`preventDefault`), a modifier key or
 * another button (new tab, new window, download), `target` other than `_self`, `download`,
 * another origin, and a link to a fragment of the page already shown.
 *
 * From the click until the new page is on screen (its sections that wait on the upstream show
 * their own skeletons; a product's or an order's page waits for its read before it is sent), a
 * bar across the top says the page is loading: the click shows something at once, whatever the
 * server does.
 */
export function LinkNavigator() {
  const router = useRouter();
  const [navigating, startTransition] = useTransition();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[data-app-link]") : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
      if (samePage && url.hash) return;
      event.preventDefault();
      const href = `${url.pathname}${url.search}${url.hash}`;
      const options = { scroll: link.dataset.appLinkScroll !== "keep" };
      startTransition(() => {
        if (link.dataset.appLink === "replace") router.replace(href, options);
        else router.push(href, options);
      });
    }
    document.addEventListener("click", onClick);
    // Says that clicks are routed from now on (a click before hydration loads a new document,
    // which works too): tests wait for it before they count router requests.
    document.documentElement.dataset.linksRouted = "1";
    return () => {
      document.removeEventListener("click", onClick);
      delete document.documentElement.dataset.linksRouted;
    };
  }, [router]);
  return navigating ? (
    <div
      aria-busy="true"
      className="pointer-events-none fixed inset-x-0 top-0 z-50 h-1 bg-brand-600 motion-safe:animate-pulse"
      data-testid="navigating"
    >
      <span role="status" className="sr-only">
        Loading…
      </span>
    </div>
  ) : null;
}
