import { callApi } from "@/components/api-client";

/** What the wallet has available now in a currency, in minor units; null when it cannot be read. */
export async function readAvailableMinor(currency: string): Promise<bigint | null> {
  const result = await callApi<{ availableMinor: string }>("GET", `/api/orders/funds?currency=${encodeURIComponent(currency)}`);
  return result.ok ? BigInt(result.data.availableMinor) : null;
}
