import { afterEach, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { placeOrder } from "@/lib/orders/place-order";
import { resumePendingOrders } from "@/lib/orders/resume-pending-orders";
import { clientOrderKey } from "@/lib/idempotency/keys";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { upstream } from "@/lib/upstream/service";
import { makeStaff } from "../support/db";
import { control, upstreamGet } from "../support/sandbox";
import { variantProduct } from "../support/catalog";

type UpstreamOrders = { items: { id: string; clientReference: string }[] };

async function upstreamOrdersFor(clientReference: string) {
  return (await upstreamGet<UpstreamOrders>(`/orders?clientReference=${encodeURIComponent(clientReference)}&limit=100`)).items;
}

function orderInput(product: Awaited<ReturnType<typeof variantProduct>>, clientReference: string, key: string = randomUUID()) {
  return {
    idempotencyKey: key,
    clientReference,
    item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
  };
}

afterEach(async () => {
  await control("DELETE", "/faults");
});

describe("placing orders through the client", () => {
  test("an order is placed, mirrored with who placed it, and audited", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ref = `single-${randomUUID().slice(0, 8)}`;
    const { order, replayed } = await placeOrder(buyer, orderInput(product, ref));
    expect(replayed).toBe(false);
    expect(order).toMatchObject({ clientReference: ref, currency: product.currency, placedById: buyer.staffId });
    expect(["reserved", "processing", "fulfilled"]).toContain(order.status);
    const audit = await db().auditEvent.findFirst({ where: { action: "order.place", targetId: order.id } });
    expect(audit?.correlationId).toBeTruthy();
  });

  test("with errors, timeouts and dropped responses on, N orders make exactly N upstream orders and N mirror rows", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const batch = `faulty-${randomUUID().slice(0, 8)}`;
    await control("PUT", "/faults", {
      errorRate: 0.2,
      timeoutRate: 0.1,
      timeoutMs: 3000,
      dropResponseAfterCommitRate: 0.25,
      methods: ["POST"],
      pathPrefix: "/api/v1/orders",
    });

    const N = 20;
    const inputs = Array.from({ length: N }, (_, i) => orderInput(product, `${batch}-${i}`));
    const firstTry = [];
    for (let i = 0; i < N; i += 5)
      firstTry.push(...(await Promise.allSettled(inputs.slice(i, i + 5).map((input) => placeOrder(buyer, input)))));

    // What a person does after an error: submit the same form again (same key), once the faults are gone.
    await control("DELETE", "/faults");
    for (const [i, result] of firstTry.entries()) {
      if (result.status === "rejected") await placeOrder(buyer, inputs[i]);
    }
    await resumePendingOrders({ olderThanMs: 0 });

    for (let i = 0; i < N; i++) expect(await upstreamOrdersFor(`${batch}-${i}`), `order ${i}`).toHaveLength(1);
    expect(await db().order.count({ where: { clientReference: { startsWith: batch } } })).toBe(N);
  });

  test("a crash after the ledger commit and before the send is resumed without a double purchase", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ref = `crash-before-send-${randomUUID().slice(0, 8)}`;
    const input = orderInput(product, ref);
    const request = { item: { ...input.item, variantId: input.item.variantId }, clientReference: ref };
    // The process "dies" right after committing the key: nothing was sent.
    await openLedgerEntry(clientOrderKey(buyer.staffId, input.idempotencyKey), "order.create", request, buyer.staffId);
    expect(await upstreamOrdersFor(ref)).toHaveLength(0);

    await resumePendingOrders({ olderThanMs: 0 });
    await resumePendingOrders({ olderThanMs: 0 });
    expect(await upstreamOrdersFor(ref)).toHaveLength(1);
    const again = await placeOrder(buyer, input);
    expect(again.replayed).toBe(true);
    expect(await upstreamOrdersFor(ref)).toHaveLength(1);
    expect(await db().order.count({ where: { clientReference: ref } })).toBe(1);
  });

  test("a crash after the send, before the answer was recorded, finds the one order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ref = `crash-after-send-${randomUUID().slice(0, 8)}`;
    const input = orderInput(product, ref);
    const request = { item: { ...input.item }, clientReference: ref };
    const key = clientOrderKey(buyer.staffId, input.idempotencyKey);
    await openLedgerEntry(key, "order.create", request, buyer.staffId);
    await upstream().createOrder(request, key); // sent; the answer is "lost"

    await resumePendingOrders({ olderThanMs: 0 });
    expect(await upstreamOrdersFor(ref)).toHaveLength(1);
    const mirrored = await db().order.findMany({ where: { clientReference: ref } });
    expect(mirrored).toHaveLength(1);
    expect(mirrored[0]!.placedById).toBe(buyer.staffId);
  });

  test("a double submit of the same form makes one order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ref = `double-${randomUUID().slice(0, 8)}`;
    const input = orderInput(product, ref);
    const results = await Promise.allSettled([placeOrder(buyer, input), placeOrder(buyer, input), placeOrder(buyer, input)]);
    const ids = new Set(results.flatMap((r) => (r.status === "fulfilled" ? [r.value.order.id] : [])));
    expect(ids.size).toBeLessThanOrEqual(1);
    await resumePendingOrders({ olderThanMs: 0 });
    expect(await upstreamOrdersFor(ref)).toHaveLength(1);
  });

  test("the same key with a different order is refused and sends nothing", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const key = randomUUID();
    await placeOrder(buyer, orderInput(product, `reuse-a-${key}`, key));
    await expect(placeOrder(buyer, orderInput(product, `reuse-b-${key}`, key))).rejects.toMatchObject({ code: "conflict" });
    expect(await upstreamOrdersFor(`reuse-b-${key}`)).toHaveLength(0);
  });

  test("a client's key is that person's alone: another buyer's same key places another order, and the upstream sees it namespaced", async () => {
    const [ann, bob] = await Promise.all([makeStaff(["buyer"]), makeStaff(["buyer"])]);
    const product = await variantProduct();
    const key = `shared-${randomUUID()}`;
    const ref = `namespaced-${randomUUID().slice(0, 8)}`;
    const first = await placeOrder(ann, orderInput(product, ref, key));
    // The same body and key from another person: before, this replayed Ann's order to Bob.
    const second = await placeOrder(bob, orderInput(product, ref, key));
    expect(second.replayed).toBe(false);
    expect(second.order.id).not.toBe(first.order.id);
    expect(second.order.placedById).toBe(bob.staffId);
    expect((await placeOrder(ann, orderInput(product, ref, key))).order.id).toBe(first.order.id);
    expect(await upstreamOrdersFor(ref)).toHaveLength(2);
    const mirrored = await db().order.findUniqueOrThrow({ where: { id: first.order.id } });
    expect(mirrored.idempotencyKey).toBe(`client:${ann.staffId}:${key}`);

    // A key too long to prefix within the contract's 128 characters is hashed, still per person.
    const long = "k".repeat(128);
    const longRef = `namespaced-long-${randomUUID().slice(0, 8)}`;
    const placed = await placeOrder(ann, orderInput(product, longRef, long));
    expect((await placeOrder(ann, orderInput(product, longRef, long))).order.id).toBe(placed.order.id);
    const stored = (await db().order.findUniqueOrThrow({ where: { id: placed.order.id } })).idempotencyKey!;
    expect(stored).toMatch(new RegExp(`^client-sha256:${ann.staffId}:`));
    expect(stored.length).toBeLessThanOrEqual(128);
  });

  test("an order kept under its bare key before keys were namespaced is still found by a retry of that key", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ref = `legacy-key-${randomUUID().slice(0, 8)}`;
    const input = orderInput(product, ref);
    const request = { item: { ...input.item }, clientReference: ref };
    // What the app did before: the ledger and the upstream got the client's key as sent; the answer was lost.
    await openLedgerEntry(input.idempotencyKey, "order.create", request, buyer.staffId);
    await upstream().createOrder(request, input.idempotencyKey);

    const again = await placeOrder(buyer, input);
    expect(again.replayed).toBe(true);
    expect(await upstreamOrdersFor(ref)).toHaveLength(1);
    // Someone else's retry of that key is theirs: a new order.
    expect((await placeOrder(await makeStaff(["buyer"]), input)).order.id).not.toBe(again.order.id);
  });

  test("a business refusal (409) is final: recorded, explained, never retried", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    await control("PUT", `/products/${product.id}`, { isAvailable: false });
    try {
      const input = orderInput(product, `unavailable-${randomUUID().slice(0, 8)}`);
      const error = await placeOrder(buyer, input).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "product_unavailable", status: 409, correlationId: expect.any(String) });
      const key = clientOrderKey(buyer.staffId, input.idempotencyKey);
      expect((await db().idempotencyKey.findUnique({ where: { key } }))?.state).toBe("rejected");
    } finally {
      await control("PUT", `/products/${product.id}`, { isAvailable: true });
    }
  });

  test("only buyers may place orders, and bad input sends nothing", async () => {
    const product = await variantProduct();
    for (const role of ["admin", "support", "finance", "approver", "viewer"]) {
      await expect(placeOrder(await makeStaff([role]), orderInput(product, "nope"))).rejects.toMatchObject({ code: "forbidden" });
    }
    const buyer = await makeStaff(["buyer"]);
    for (const bad of [
      {},
      { ...orderInput(product, "x"), item: { ...orderInput(product, "x").item, quantity: 0 } },
      { ...orderInput(product, "x"), quoteId: "q" },
      { ...orderInput(product, "x"), idempotencyKey: "" },
      { ...orderInput(product, "x"), phoneNumber: "0123" },
    ]) {
      await expect(placeOrder(buyer, bad)).rejects.toMatchObject({ code: "invalid_request" });
    }
  });
});
