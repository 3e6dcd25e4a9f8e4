import type { Product } from "@/lib/upstream/client";
import { upstreamGet } from "./sandbox";

/** An available product of the sandbox bought by variant, in USD (deterministic catalog). */
export async function variantProduct(
  currency = "USD",
): Promise<Product & { variants: [Product["variants"][number], ...Product["variants"]] }> {
  for (let offset = 0; offset < 400; offset += 100) {
    const page = await upstreamGet<{ items: Product[] }>(`/products?category=gift-card&limit=100&offset=${offset}`);
    const found = page.items.find(
      (p) => p.isAvailable && p.variants.length > 0 && p.currency === currency && p.variants[0]!.price < 60,
    );
    if (found) return found as never;
  }
  throw new Error("no available variant product in the sandbox catalog");
}
