import { z } from "zod";

/**
 * Whether Next can read a Next-Router-State-Tree header (or there is none). Next reads it for a
 * router request (`RSC: 1`) and answers one it cannot parse with a 500, after first redirecting
 * a request without its `_rsc` parameter to one with it. The browser's router only ever sends a
 * tree Next wrote, so a header that does not parse comes from something else, and the request
 * gate refuses it.
 *
 * The shape is Next's (16.4: `flightRouterStateSchema` and the size bound of
 * `parseAndValidateFlightRouterState`), written here because Next does not export its check
 * (it lives in its build output, which may move in any release). If Next changes the shape,
 * one of two tests fails: the e2e navigation test (tests/e2e/fuzz.spec.ts: the router's own
 * navigations are never refused) when this is stricter than Next, the fuzz suite's router-header
 * cases (no 5xx) when it is laxer.
 */
const MAX_HEADER_LENGTH = 20 * 2000;

const dynamicParamType = z.enum([
  "c",
  "ci(..)(..)",
  "ci(.)",
  "ci(..)",
  "ci(...)",
  "oc",
  "d",
  "di(..)(..)",
  "di(.)",
  "di(..)",
  "di(...)",
]);
const segment = z.union([z.string(), z.tuple([z.string(), z.string(), dynamicParamType, z.array(z.string()).nullable()])]);

type RouterState = [unknown, { [slot: string]: RouterState }, ...unknown[]];
const routerState: z.ZodType<RouterState> = z.lazy(() =>
  z.tuple([
    segment,
    z.record(z.string(), routerState),
    z.tuple([z.string(), z.string()]).nullable().optional(),
    z.enum(["refetch", "inside-shared-layout", "metadata-only"]).nullable().optional(),
    z.number().nullable().optional(),
    z.string().optional(),
  ]),
) as unknown as z.ZodType<RouterState>; // zod's inferred tuple with optional items is wider than the recursive type it checks

export function readableRouterState(header: string | null): boolean {
  if (header === null) return true;
  if (header.length > MAX_HEADER_LENGTH) return false;
  try {
    return routerState.safeParse(JSON.parse(decodeURIComponent(header))).success;
  } catch {
    return false;
  }
}
