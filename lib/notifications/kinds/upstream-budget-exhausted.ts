import { z } from "zod";
import { defineKind } from "./define-kind";

/** People's share of the upstream budget was used up several whole minutes in a row: admins hear once per run. */
export const upstreamBudgetExhausted = defineKind({
  label: "The upstream budget stayed exhausted",
  roles: ["admin"],
  to: "roles",
  payload: z.object({ began: z.date(), minutes: z.number().int(), cap: z.number().int() }),
  eventKey: ({ began }) => `upstream.budget_exhausted:${began.toISOString()}`,
  compose: ({ began, minutes, cap }) => ({
    title: `The upstream budget has been used up for ${minutes} minutes in a row (since ${began.toISOString().slice(11, 16)} UTC)`,
    body: `Each minute reached ${cap} calls, the most people's reads may use: their pages wait or answer 429. The admin home shows who spent it.`,
    link: "/",
  }),
});
