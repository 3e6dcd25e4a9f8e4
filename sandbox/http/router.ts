// A tiny method + path table. Patterns use `:name` segments, e.g. "/api/v1/orders/:orderId".

export type Route<H> = { method: string; parts: string[]; handler: H };
export type Match<H> = { route: Route<H>; params: Record<string, string> };

export function route<H>(method: string, pattern: string, handler: H): Route<H> {
  return { method, parts: pattern.split("/").filter(Boolean), handler };
}

export function splitPath(pathname: string): string[] {
  return pathname
    .split("/")
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part; // a malformed escape simply matches nothing
      }
    });
}

function matchParts(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    const got = parts[i] as string;
    if (want.startsWith(":")) params[want.slice(1)] = got;
    else if (want !== got) return null;
  }
  return params;
}

// Returns the match, or the methods the path does allow (empty when the path is unknown).
export function matchRoute<H>(routes: Route<H>[], method: string, parts: string[]): Match<H> | { allowed: string[] } {
  const allowed: string[] = [];
  for (const candidate of routes) {
    const params = matchParts(candidate.parts, parts);
    if (!params) continue;
    if (candidate.method === method) return { route: candidate, params };
    allowed.push(candidate.method);
  }
  return { allowed };
}
