import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The app's link: Next's `<Link>` (client-side navigation) without automatic prefetching.
 * Next prefetches every link that scrolls into view, and every page here is dynamic, so each
 * prefetch is a full server render: one catalog page in a browser made 26 requests to the
 * server (24 product cards and the sidebar) and cost about 11 times the app CPU of the page
 * itself, and prefetched product pages could spend the upstream budget on pages nobody opened
 * (`npm run bench:browser`). A click still navigates without a full reload; it fetches then.
 * `next/link` is imported here only (eslint.config.mjs). Pass `prefetch` to choose otherwise.
 */
export function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
