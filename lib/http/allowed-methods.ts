/**
 * Which methods the route handler that Next would pick for a path exports, so that the request
 * gate (lib/http/gate.ts) can answer any other method with a 405 problem document and an `Allow` header (Next's own
 * 405 has neither a body nor `Allow`). The route list comes from
 * scripts/discover-api-routes.mjs at build time; nothing here is kept by hand.
 */
export type RouteMethods = { pattern: string; methods: string[] };

type Rank = 0 | 1 | 2; // static, dynamic, catch-all: Next prefers them in this order.

/** The segments' ranks when `pattern` matches `pathname`, else null. */
function match(pattern: string, pathname: string): Rank[] | null {
  const want = pattern.split("/").filter(Boolean);
  const have = pathname.split("/").filter(Boolean);
  const ranks: Rank[] = [];
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (/^\[\[?\.\.\./.test(segment)) {
      const optional = segment.startsWith("[[");
      if (!optional && have.length <= i) return null;
      ranks.push(2);
      return ranks;
    }
    if (have.length <= i) return null;
    if (segment.startsWith("[")) ranks.push(1);
    else if (segment === have[i]) ranks.push(0);
    else return null;
  }
  return have.length === want.length ? ranks : null;
}

function compare(a: Rank[], b: Rank[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return b.length - a.length;
}

/** The `Allow` list of the route serving `pathname` (HEAD with GET, OPTIONS always, as Next does), or null if none serves it. */
export function allowedMethods(pathname: string, routes: readonly RouteMethods[]): string[] | null {
  let best: { ranks: Rank[]; route: RouteMethods } | null = null;
  for (const route of routes) {
    const ranks = match(route.pattern, pathname);
    if (ranks && (!best || compare(ranks, best.ranks) < 0)) best = { ranks, route };
  }
  if (!best) return null;
  const allow = new Set(best.route.methods);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  return [...allow];
}
