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
 * Next's router navigation, as `next/link` would; before hydration, and with a modifier key,
 * a middle click, `target` or `download`, it is an ordinary link. Not `next/link`: each one is
 * a client component rendered twice on the server and hydrated, and its prefetch is a full
 * server render of a dynamic page (docs/decisions/0007-links-are-plain-anchors.md).
 */
export function Link({ href, replace = false, scroll = true, ...props }: LinkProps) {
  return (
    <a {...props} href={href} data-app-link={replace ? "replace" : "push"} data-app-link-scroll={scroll ? undefined : "keep"} />
  );
}
