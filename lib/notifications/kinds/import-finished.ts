import { z } from "zod";
import { defineKind } from "./define-kind";

const count = new Intl.NumberFormat("en-US");

/** The history import recorded its last page: admins hear once per import (its start names it). */
export const importFinished = defineKind({
  label: "The history import finished",
  roles: ["admin"],
  to: "roles",
  payload: z.object({ source: z.string(), startedAt: z.date(), orders: z.number().int() }),
  eventKey: ({ source, startedAt }) => `import.finished:${source}:${startedAt.toISOString()}`,
  compose: ({ orders }) => ({
    title: `The order history import finished: ${count.format(orders)} ${orders === 1 ? "order" : "orders"}`,
    body: "Every order the Issuing Service lists is now in the app; from here the sync keeps it up to date.",
    link: "/settings",
  }),
});
