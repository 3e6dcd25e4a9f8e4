import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { serviceConfig } from "@/lib/env";
import { db } from "@/lib/db/client";
import type { KeySlotConfig, Scope } from "@/lib/upstream/client";
import { wireUpstream } from "@/lib/upstream/service";
import { variantProduct } from "../support/catalog";
import { countNotifications } from "../support/notifications";
import { control, eventually } from "../support/sandbox";

/**
 * The keys per capability (issue 42; contract §5): each call goes out with the narrowest
 * configured key, a key refused a scope is reported once, audited and not retried, and each
 * key rotates on its own. The upstream is the sandbox over HTTP, which records which key made
 * each call (GET /_sandbox/calls).
 */
type Issued = { id: string; key: string };
type Call = { keyId: string; method: string; path: string; scope: string; allowed: boolean };

const issue = (scopes: Scope[], label: string) => control("POST", "/keys", { scopes, label }) as Promise<Issued>;
/**
 * The calls made with `keys` since the last reset. Other test files use the same sandbox at the
 * same time, each with keys of its own, so a test reads only the calls of the keys it issued.
 */
const callsBy = async (...keys: Issued[]) => {
  const ids = new Set(keys.map((k) => k.id));
  return ((await control("GET", "/calls")) as { items: Call[] }).items.filter((c) => ids.has(c.keyId));
};
const client = (keys: KeySlotConfig[]) => wireUpstream({ ...serviceConfig(), keys }).client;

let read: Issued, ordering: Issued, payout: Issued, general: Issued;

beforeAll(async () => {
  read = await issue(["products.read", "orders.read", "wallet.read"], "test read");
  ordering = await issue(["quotes.create", "orders.create"], "test ordering");
  payout = await issue(["wallet.withdraw", "wallet.deposit-address.write"], "test payout");
  general = await issue(
    [
      "products.read",
      "quotes.create",
      "orders.create",
      "orders.read",
      "wallet.read",
      "wallet.deposit-address.write",
      "wallet.withdraw",
    ],
    "test general",
  );
});

afterEach(async () => {
  await control("DELETE", "/calls");
});

/** Every endpoint of the contract, once, through `upstream`; business refusals are fine here, only the key matters. */
async function callEveryEndpoint(upstream: ReturnType<typeof client>) {
  const product = await variantProduct();
  const tolerate = (p: Promise<unknown>) => p.catch(() => undefined);
  await upstream.listProducts({ limit: 2 });
  await upstream.getProduct(product.id);
  const image = product.images[0]?.publicReference;
  if (image) await upstream.getProductImage(image);
  const quote = await upstream.createQuote({
    productId: product.id,
    variantId: product.variants[0].id,
    quantity: 1,
    currency: "USD",
  });
  const order = await upstream.createOrder({ quoteId: quote.data.id, clientReference: `keys-${randomUUID()}` }, randomUUID());
  await upstream.getOrder(order.data.id);
  await upstream.listOrders({ limit: 1 });
  await tolerate(upstream.revealFulfillment(order.data.id, randomUUID()));
  await upstream.getBalances();
  await upstream.listDeposits({ limit: 1 });
  await tolerate(upstream.getDepositAddress());
  await upstream.requestDepositAddress();
  await upstream.quoteWithdrawal({ amount: 20, currency: "USD" });
  await upstream.listWithdrawals({ limit: 1 });
  const withdrawal = await upstream.createWithdrawal({ amount: 20, currency: "USD" });
  await tolerate(upstream.cancelWithdrawal(withdrawal.data.id));
}

describe("the narrowest key", () => {
  test("every endpoint is called with the capability key that serves its scope, never the general key beside it", async () => {
    const upstream = client([
      { name: "general", keys: [general.key] },
      { name: "read", keys: [read.key] },
      { name: "ordering", keys: [ordering.key] },
      { name: "payout", keys: [payout.key] },
    ]);
    await callEveryEndpoint(upstream);

    const made = await callsBy(read, ordering, payout, general);
    const expected: Record<string, string> = {
      "products.read": read.id,
      "orders.read": read.id,
      "wallet.read": read.id,
      "quotes.create": ordering.id,
      "orders.create": ordering.id,
      "wallet.withdraw": payout.id,
      "wallet.deposit-address.write": payout.id,
    };
    // Every scope of the contract was exercised, each by its own key, and every call was allowed.
    expect(new Set(made.map((c) => c.scope))).toEqual(new Set(Object.keys(expected)));
    for (const call of made) expect(call).toMatchObject({ keyId: expected[call.scope], allowed: true });
    expect(made.some((c) => c.keyId === general.id)).toBe(false);
  });

  test("with the general key alone (the one-key setup), it serves every call", async () => {
    await callEveryEndpoint(client([{ name: "general", keys: [general.key] }]));
    const made = await callsBy(read, ordering, payout, general);
    expect(made.length).toBeGreaterThanOrEqual(14);
    expect(made.every((c) => c.keyId === general.id && c.allowed)).toBe(true);
  });

  test("a process without a key for a scope sends nothing and says which scope is missing", async () => {
    const web = client([
      { name: "read", keys: [read.key] },
      { name: "ordering", keys: [ordering.key] },
    ]);
    const error = await web.createWithdrawal({ amount: 20, currency: "USD" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "upstream_error", extra: { scope: "wallet.withdraw" } });
    expect(String((error as Error).message)).toContain("wallet.withdraw");
    expect(await callsBy(read, ordering, payout, general)).toEqual([]);
    expect(web.transport.serves("wallet.withdraw")).toBe(false);
    expect(web.transport.serves("orders.create")).toBe(true);
  });
});

describe("a key refused a scope (403)", () => {
  test("is not retried, is shown with the upstream's words, and is audited and told to admins once per key and scope", async () => {
    // An ordering key that was issued without orders.create.
    const narrow = await issue(["quotes.create"], "test ordering without orders.create");
    const lookup = narrow.key.split("_")[1]!;
    const upstream = client([
      { name: "read", keys: [read.key] },
      { name: "ordering", keys: [narrow.key] },
    ]);
    const product = await variantProduct();
    const order = () =>
      upstream
        .createOrder(
          {
            item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" },
            clientReference: `k-${randomUUID()}`,
          },
          randomUUID(),
        )
        .catch((e: unknown) => e);

    const first = await order();
    expect(first).toMatchObject({ code: "upstream_key_refused", extra: { key: "ordering", scope: "orders.create" } });
    expect((first as Error).message).toMatch(/^Ordering is paused for everyone: .* Admins have been alerted/);
    expect((first as Error).message).toMatch(/ordering key: The API key lacks the scope orders\.create\./);
    expect((first as Error).message).not.toContain(narrow.key.split("_").at(-1)!);
    await order();
    // One attempt per call: a 403 is never sent again.
    expect((await callsBy(narrow)).filter((c) => c.path === "/api/v1/orders")).toHaveLength(2);
    // Reads still work with the read key.
    expect((await upstream.getBalances()).data.items.length).toBeGreaterThan(0);

    const audited = await eventually(async () => {
      const rows = await db().auditEvent.findMany({ where: { action: "upstream.key_scope_refused", targetId: lookup } });
      const counted = await db().upstreamScopeRefusal.findUnique({ where: { lookup_scope: { lookup, scope: "orders.create" } } });
      // Both refusals counted and the first one's audit row written (it follows the count, out of the call's way).
      return counted?.count === 2 && rows.length > 0 ? rows : undefined;
    }, 5_000);
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({
      key: "ordering",
      scope: "orders.create",
      message: "The API key lacks the scope orders.create.",
    });
    // Admins were told once, with the audit row: the person refused reads "Admins have been alerted".
    expect(await countNotifications("upstream.key_refused", `upstream.key_scope_refused:${lookup}:orders.create`)).toBe(1);
    const health = await db().upstreamKey.findUnique({ where: { lookup } });
    expect(health).toMatchObject({ name: "ordering", lastRefusalStatus: 403, lastRefusalScope: "orders.create" });
    // The run of refusals began at the first: "stopped since" does not move with each refusal.
    expect(health!.refusedSince!.getTime()).toBeLessThan(health!.lastRefusalAt!.getTime());
  });
});

describe("a key refused (401)", () => {
  test("is audited once per run of refusals, naming the key, whichever call met it (a quote too)", async () => {
    const revoked = await issue(["quotes.create", "orders.create"], "revoked ordering, no next key");
    const lookup = revoked.key.split("_")[1]!;
    await control("DELETE", `/keys/${revoked.id}`);
    const upstream = client([
      { name: "read", keys: [read.key] },
      { name: "ordering", keys: [revoked.key] },
    ]);
    const product = await variantProduct();
    const quote = () =>
      upstream
        .createQuote({ productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" })
        .catch((e: unknown) => e);
    expect(await quote()).toMatchObject({ code: "upstream_key_refused", extra: { key: "ordering" } });
    await quote();
    const audited = await eventually(async () => {
      const rows = await db().auditEvent.findMany({ where: { action: "upstream.key_refused", targetId: lookup } });
      const health = await db().upstreamKey.findUnique({ where: { lookup } });
      return rows.length > 0 && health?.lastRefusalStatus === 401 ? rows : undefined;
    }, 5_000);
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ key: "ordering", scope: "quotes.create" });
    expect(JSON.stringify(audited[0]!.details)).not.toContain(revoked.key.split("_").at(-1)!);
  });
});

describe("rotation per key", () => {
  test("a 401 on the ordering key moves only the ordering key to its next one", async () => {
    const [oldOrdering, nextOrdering, nextRead] = [
      await issue(["quotes.create", "orders.create"], "rotation old ordering"),
      await issue(["quotes.create", "orders.create"], "rotation next ordering"),
      await issue(["products.read", "orders.read", "wallet.read"], "rotation next read"),
    ];
    await control("DELETE", `/keys/${oldOrdering.id}`); // the dashboard revokes the old ordering key
    const upstream = client([
      { name: "read", keys: [read.key, nextRead.key] },
      { name: "ordering", keys: [oldOrdering.key, nextOrdering.key] },
    ]);
    const product = await variantProduct();
    await upstream.createQuote({ productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" });
    await upstream.createQuote({ productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" });
    await upstream.getBalances();

    const made = await callsBy(read, oldOrdering, nextOrdering, nextRead);
    const quotes = made.filter((c) => c.path === "/api/v1/quotes").map((c) => c.keyId);
    // The revoked key's 401 is answered before the sandbox records a call; both quotes went with the next key.
    expect(quotes).toEqual([nextOrdering.id, nextOrdering.id]);
    // The read key was not touched by the ordering key's rotation.
    expect(made.filter((c) => c.scope === "wallet.read").map((c) => c.keyId)).toEqual([read.id]);
    const rotated = await eventually(
      async () =>
        (await db().upstreamKey.findUnique({ where: { lookup: nextOrdering.key.split("_")[1]! } }))?.inUseSince ?? undefined,
      5_000,
    );
    expect(rotated).toBeInstanceOf(Date);
  });
});
