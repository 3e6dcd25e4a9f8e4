import { z } from "zod";
import { formatMoney } from "@/lib/money";
import { CATALOG_CHANGES } from "@/lib/catalog-watch/watch-target";
import { defineKind, rolesWith } from "./define-kind";

const change = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  change: z.enum(CATALOG_CHANGES),
  variantLabel: z.string().nullable(),
  oldPriceMinor: z.string().nullable(),
  newPriceMinor: z.string().nullable(),
  currency: z.string().nullable(),
  percent: z.string().nullable(),
});
type Change = z.infer<typeof change>;

/**
 * Products someone watches changed (lib/catalog-watch): one notification per person and pass,
 * however many products changed, each line with the old and new price or state.
 */
export const catalogChanged = defineKind({
  label: "A product you watch changed price or availability",
  roles: rolesWith("catalog.watch"),
  to: "named",
  payload: z.object({ staffId: z.string(), changes: z.array(change).min(1) }),
  // A change is told once: the first change's id (they are notified together, never again) names the message.
  eventKey: ({ staffId, changes }) => `catalog.changed:${staffId}:${changes.map((c) => c.id).sort()[0]}`,
  compose: ({ changes }) => {
    const [first] = changes;
    const products = new Set(changes.map((c) => c.productId)).size;
    if (changes.length === 1 && first)
      return { title: describeChange(first), link: `/catalog/${encodeURIComponent(first.productId)}` };
    return {
      title: products === 1 && first ? `${first.productName} changed` : `${products} products you watch changed`,
      body: changes.map(describeChange).join("\n"),
      link: "/catalog/watches",
    };
  },
  audience: ({ staffId }) => ({ staffIds: [staffId] }),
});

function price(minor: string | null, currency: string | null): string {
  return minor !== null && currency ? formatMoney(BigInt(minor), currency) : "?";
}

/** "Amazon Gift Card – US ($25): price rose 5.00 %, $24.50 → $25.73" */
function describeChange(c: Change): string {
  const what = c.variantLabel ? `${c.productName} (${c.variantLabel})` : c.productName;
  switch (c.change) {
    case "price_rise":
    case "price_drop":
      return `${what}: price ${c.change === "price_rise" ? "rose" : "fell"} ${(c.percent ?? "").replace("-", "")} %, ${price(c.oldPriceMinor, c.currency)} → ${price(c.newPriceMinor, c.currency)}`;
    case "unavailable":
      return `${what}: now unavailable (was available)`;
    case "available":
      return `${what}: available again (was unavailable)`;
    case "new":
      return `${what}: new in the catalog`;
  }
}
