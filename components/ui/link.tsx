import type { AnchorHTMLAttributes } from "react";

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  href: string;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Keep the scroll position (default: the new page starts at its top). */
  scroll?: boolean;
};

/**
 * The app's link: a plain `<a>` that navigates client-side. One listener for the whole
 * document (`LinkNavigator`, in the root layout) turns a plain left click on any of these into
 * Next's router navigation, as `next/link` would: the layout stays, and the server renders the
 * new page's RSC payload, not a whole HTML document. Before hydration, and with a modifier key,
 * a middle click, `target` or `download`, it is an ordinary link.
 *
 * Why not `next/link` itself: each one is a client component. The server renders it twice
 * (into the RSC payload and into HTML) and the browser hydrates it: 100 of them cost about 4 ms
 * of server CPU more than 100 anchors, and a catalog page holds 35 (the sidebar, the menu's copy
 * of it, 24 product cards). Nor does it prefetch: every page here is dynamic, so a prefetch is a
 * full server render (one catalog page once cost 26 requests and could spend upstream budget on
 * pages nobody opened). `next/link` is imported nowhere (eslint.config.mjs).
 */
export function Link({ href, replace = false, scroll = true, ...props }: LinkProps) {
  return (
    <a {...props} href={href} data-app-link={replace ? "replace" : "push"} data-app-link-scroll={scroll ? undefined : "keep"} />
  );
}
