import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused, readState } from "./support/state";
import { allProducts, inlineItem } from "./support/catalog";
import { waitFor } from "./support/wait";

let sb: TestSandbox;
let product: Json;
beforeAll(async () => {
  sb = await startTestSandbox({ fulfilmentDelayMs: 5 });
  // A price with odd cents makes float drift visible if anything added floats.
  product = (await allProducts(sb)).find(
    (p) => p.isAvailable && p.currency === "USD" && p.variants.length > 0 && Math.round(p.variants[0].price * 100) % 10 !== 0,
  );
});
afterAll(() => sb.close());

const cents = (n: number) => Math.round(n * 100);
const usd = async () => (await sb.api("/wallet/balance?currency=USD")).body;

describe("concurrent orders against one wallet", () => {
  it("never overdraws: exactly as many orders succeed as the balance covers, and balances add up to the cent", async () => {
    const unit = cents(product.variants[0].price);
    const affordable = 37;
    const opening = unit * affordable + unit - 1; // one cent short of a 38th order
    await sb.control("PUT", "/wallet", { balances: { USD: opening / 100 } });
    const attempts = 80;
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        sb.api("/orders", {
          body: { item: inlineItem(product), clientReference: `race-${i}` },
          headers: { "Idempotency-Key": `race-${i}` },
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status !== 202);
    expect(accepted).toHaveLength(affordable);
    for (const r of refused) expectProblem(r, 409, "insufficient_funds");
    // Refusals that raced each other cannot each be isolated; together they left no order and no idempotency key.
    const workspace = (await readState(sb)).state.workspaces.$map[0][1];
    expect(workspace.orders.$map).toHaveLength(affordable);
    expect(workspace.orderKeys.$map).toHaveLength(affordable);
    const mid = await usd();
    expect(mid.availableBalance).toBeGreaterThanOrEqual(0);
    expect(cents(mid.availableBalance) + cents(mid.reservedBalance)).toBeLessThanOrEqual(opening);
    await waitFor(async () => (await usd()).reservedBalance === 0, "all orders to settle");
    await expectRefused(
      sb,
      () =>
        sb.api("/orders", {
          body: { item: inlineItem(product), clientReference: "race-late" },
          headers: { "Idempotency-Key": "race-late" },
        }),
      409,
      "insufficient_funds",
    );
    const end = await usd();
    const spent = accepted.reduce((sum, r) => sum + cents(r.body.total), 0);
    expect(cents(end.availableBalance)).toBe(opening - spent);
    expect(cents(end.availableBalance)).toBe(unit - 1);
    expect(cents(end.totalBalance)).toBe(unit - 1);
  });

  it("creates exactly one order when many requests race with the same Idempotency-Key", async () => {
    await sb.control("PUT", "/wallet", { balances: { USD: 1000 } });
    const body = { item: inlineItem(product), clientReference: "same-key-race" };
    const results = await Promise.all(
      Array.from({ length: 25 }, () => sb.api("/orders", { body, headers: { "Idempotency-Key": "same-key-race" } })),
    );
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    for (const r of results) expect(r.status).toBe(202);
    expect((await sb.api("/orders?clientReference=same-key-race")).body.items).toHaveLength(1);
    await waitFor(async () => (await usd()).reservedBalance === 0, "the order to settle");
    expect(100_000 - cents((await usd()).availableBalance)).toBe(cents(results[0]!.body.total));
  });

  it("keeps the books when orders fail, succeed and get refunded at once", async () => {
    await sb.control("PUT", "/wallet", { balances: { USD: 500 } });
    await sb.control("PUT", "/fulfilment", { failRate: 0.5, delayMs: 5 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sb.api("/orders", {
          body: { item: inlineItem(product), clientReference: `mixed-${i}` },
          headers: { "Idempotency-Key": `mixed-${i}` },
        }),
      ),
    );
    const ids = results.filter((r) => r.status === 202).map((r) => r.body.id as string);
    const final = await waitFor(async () => {
      const orders = await Promise.all(ids.map(async (id) => (await sb.api(`/orders/${id}`)).body));
      return orders.every((o) => o.status === "fulfilled" || o.status === "failed") && orders;
    }, "every order to end");
    const fulfilledOrders = final.filter((o) => o.status === "fulfilled");
    await Promise.all(fulfilledOrders.slice(0, 3).map((o) => sb.control("POST", `/orders/${o.id}/refund`)));
    const spent = fulfilledOrders.slice(3).reduce((sum, o) => sum + cents(o.total), 0);
    const end = await usd();
    expect(cents(end.availableBalance)).toBe(50_000 - spent);
    expect(end.reservedBalance).toBe(0);
  });
});
