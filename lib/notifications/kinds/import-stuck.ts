import { z } from "zod";
import { defineKind } from "./define-kind";

const count = new Intl.NumberFormat("en-US");

/** A running import mirrored no page for a while: admins hear once per stall (its last progress names it). */
export const importStuck = defineKind({
  label: "The history import is stuck",
  roles: ["admin"],
  to: "roles",
  payload: z.object({
    source: z.string(),
    lastProgressAt: z.date(),
    idleMinutes: z.number().int(),
    ordersSoFar: z.number().int(),
    lastError: z.string().nullable(),
  }),
  eventKey: ({ source, lastProgressAt }) => `import.stuck:${source}:${lastProgressAt.toISOString()}`,
  compose: ({ idleMinutes, ordersSoFar, lastError }) => ({
    title: `The order history import has read nothing for ${idleMinutes} minutes`,
    body: `${count.format(ordersSoFar)} orders imported so far.${lastError ? ` Last error: ${lastError.slice(0, 120)}.` : ""} Settings shows its progress and can pause or restart it.`,
    link: "/settings",
  }),
});
