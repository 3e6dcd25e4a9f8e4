/** Orders placed at the sandbox's storefront before the app existed, so lists and home pages have rows. */
export async function seedStorefrontHistory(sandboxUrl: string, count: number): Promise<void> {
  const res = await fetch(`${sandboxUrl}/_sandbox/orders/seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count, referencePrefix: "storefront-" }),
  });
  if (!res.ok) throw new Error(`seeding the sandbox's orders failed: ${res.status} ${await res.text()}`);
}
