import { z } from "zod";
import { formatMoney } from "@/lib/money";
import { defineKind } from "./define-kind";

/** A currency's available balance crossed below its threshold (`episode` counts the crossings). */
export const walletLowBalance = defineKind({
  label: "The wallet is below its low-balance threshold",
  roles: ["finance"],
  to: "roles",
  payload: z.object({ currency: z.string(), availableMinor: z.bigint(), thresholdMinor: z.bigint(), episode: z.number().int() }),
  eventKey: ({ currency, episode }) => `wallet.low_balance:${currency}:${episode}`,
  compose: ({ currency, availableMinor, thresholdMinor }) => {
    const available = formatMoney(availableMinor, currency);
    const threshold = formatMoney(thresholdMinor, currency);
    return {
      title: `Wallet below ${threshold}: ${available}`,
      body: `The available ${currency} balance is ${available}, below the low-balance threshold of ${threshold}. Orders fail once it runs out: deposit funds.`,
      link: "/wallet",
    };
  },
});
