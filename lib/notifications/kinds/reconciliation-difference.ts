import { z } from "zod";
import { formatMoney } from "@/lib/money";
import { defineKind } from "./define-kind";

/** A day's reconciliation in one currency found a difference: finance hears once per day and currency. */
export const reconciliationDifference = defineKind({
  label: "The daily reconciliation found a difference",
  roles: ["finance"],
  to: "roles",
  payload: z.object({ day: z.string(), currency: z.string(), differenceMinor: z.bigint() }),
  eventKey: ({ day, currency }) => `reconciliation.difference:${day}:${currency}`,
  compose: ({ day, currency, differenceMinor }) => {
    const sign = differenceMinor < 0n ? "-" : "+";
    const amount = formatMoney(differenceMinor < 0n ? -differenceMinor : differenceMinor, currency);
    return {
      title: `Reconciliation of ${day} (${currency}) differs by ${sign}${amount}`,
      body: "The day's closing balance read from the Issuing Service is not what the app's records add up to. The day's page lists the movements and what may explain it.",
      link: `/wallet/reconciliation/${day}`,
    };
  },
});
