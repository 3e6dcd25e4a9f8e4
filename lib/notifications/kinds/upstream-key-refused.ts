import { z } from "zod";
import { defineKind } from "./define-kind";

/** The upstream refused a key outright (401, once per episode of refusals) or for one scope (403, once per key and scope). */
const refusal = z.discriminatedUnion("status", [
  z.object({ status: z.literal(401), keyName: z.string(), lookup: z.string(), since: z.date() }),
  z.object({ status: z.literal(403), keyName: z.string(), lookup: z.string(), scope: z.string() }),
]);

export const upstreamKeyRefused = defineKind({
  label: "The upstream refused a key",
  roles: ["admin"],
  to: "roles",
  payload: refusal,
  eventKey: (r) =>
    r.status === 401
      ? `upstream.key_refused:${r.lookup}:${r.since.toISOString()}`
      : `upstream.key_scope_refused:${r.lookup}:${r.scope}`,
  compose: (r) =>
    r.status === 401
      ? {
          title: `The Issuing Service refused the ${r.keyName} key ${r.lookup} (401)`,
          body: "Calls that need this key fail until it is replaced or rotated. Settings shows each key's health and how to fix it.",
          link: "/settings",
        }
      : {
          title: `The Issuing Service refused the ${r.keyName} key ${r.lookup} the scope ${r.scope} (403)`,
          body: "Calls that need this scope fail until the key is given it or replaced. Settings shows each key's health and how to fix it.",
          link: "/settings",
        },
});
