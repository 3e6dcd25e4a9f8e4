import { afterAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { stopQueues } from "@/lib/jobs/queue";
import { processEvent } from "@/lib/webhooks/process-event";
import { reprocessEvent } from "@/lib/webhooks/reprocess-event";
import { MAX_WEBHOOK_BYTES, receiveWebhook } from "@/lib/webhooks/receive-webhook";
import { placeOrder } from "@/lib/orders/place-order";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control, eventually, sandbox } from "../support/sandbox";
import { deliver, delivery, envelope, eventJobsFor, headerId, runEventJobs, type Envelope } from "./webhook-support";

afterAll(async () => {
  await stopQueues();
});

const row = (e: { id: string }) => db().webhookEvent.findUnique({ where: { id: e.id.replaceAll("-", "") } });
const now = () => Math.floor(Date.now() / 1000);

describe("receiving webhooks", () => {
  test("a valid delivery is stored in the inbox before it is acknowledged", async () => {
    const event = envelope("order.processing", { orderId: `ord_${randomUUID()}`, status: "processing" });
    const sentAt = Date.now();
    const res = await deliver(delivery(event));
    expect(res).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const stored = await row(event);
    // The instant it arrived, whatever the time zone of this process or the database session.
    expect(stored!.receivedAt.getTime()).toBeGreaterThanOrEqual(sentAt - 1);
    expect(stored!.receivedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(stored).toMatchObject({
      type: "order.processing",
      state: "pending",
      attempts: 0,
      occurredAt: new Date(event.occurredAtUtc!),
    });
    expect(stored?.payload).toEqual(event);
  });

  test("the answer does not wait for a slow upstream: processing happens after it", async () => {
    await control("PUT", "/faults", { latencyMs: 6_000 });
    try {
      const event = envelope("order.fulfilled", { orderId: `ord_${randomUUID()}` });
      const started = Date.now();
      expect((await deliver(delivery(event))).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await row(event)).toMatchObject({ state: "pending" });
    } finally {
      await control("DELETE", "/faults");
    }
  });

  test("without a configured secret nothing is accepted: the sender is asked to retry later", async () => {
    const event = envelope("order.fulfilled", { orderId: "ord_w" });
    expect(await receiveWebhook(delivery(event), { secrets: [] })).toMatchObject({
      outcome: "unavailable",
      code: "webhook_not_configured",
    });
    expect(await row(event)).toBeNull();
  });

  test("a wrong secret or a tampered body is refused with 401 and stores nothing", async () => {
    const forged = envelope("wallet.credited", { amount: 1_000_000, currency: "USD" });
    const wrong = await deliver(delivery(forged, { secret: "svcwh_not_the_right_one" }));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "invalid_signature", status: 401 });

    const genuine = delivery(forged);
    const tampered = new Request(genuine.url, {
      method: "POST",
      headers: genuine.headers,
      body: JSON.stringify(forged).replace("1000000", "9000000"),
    });
    expect((await deliver(tampered)).status).toBe(401);
    expect(await row(forged)).toBeNull();
  });

  test("stale and future timestamps are refused with 400 even when properly signed", async () => {
    const event = envelope("order.fulfilled", { orderId: "ord_x" });
    expect((await deliver(delivery(event, { timestampSeconds: now() - 301 }))).status).toBe(400);
    expect((await deliver(delivery(event, { timestampSeconds: now() + 301 }))).status).toBe(400);
    expect(await row(event)).toBeNull();
    expect((await deliver(delivery(event, { timestampSeconds: now() - 240 }))).status).toBe(200);
  });

  test("missing or odd headers, a bad event id and malformed bodies are 400 problems", async () => {
    const event = envelope("order.fulfilled", { orderId: "ord_y" });
    const odd: Record<string, string | null>[] = [
      { "x-service-signature": null },
      { "x-service-timestamp": null },
      { "x-service-event-id": null },
      { "x-service-signature": "sha256=abc" },
      { "x-service-timestamp": "yesterday" },
      { "x-service-event-id": headerId(event).toUpperCase() },
    ];
    for (const headers of odd) {
      const res = await deliver(delivery(event, { headers }));
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_request", status: 400 });
    }
    const eventId = randomUUID().replaceAll("-", "");
    for (const raw of [
      "{not json",
      "[]",
      '{"id":"x","type":"order.fulfilled"}',
      JSON.stringify({ id: randomUUID(), type: "order.fulfilled" }),
      "\u00ff\u00fe",
    ]) {
      expect((await deliver(delivery({ raw, eventId }))).status, raw).toBe(400);
    }
    // Signed, well-formed, but the envelope is not the event the header names.
    expect(await deliver(delivery({ raw: JSON.stringify(event), eventId }))).toMatchObject({ status: 400 });
    expect(await db().webhookEvent.count({ where: { id: { in: [eventId, headerId(event)] } } })).toBe(0);
  });

  test("a body over the size limit is refused with 413, declared or streamed", async () => {
    const event = envelope("order.fulfilled", { orderId: "ord_z", padding: "x".repeat(MAX_WEBHOOK_BYTES) });
    expect((await deliver(delivery(event))).status).toBe(413);
    expect((await deliver(delivery(event, { stream: true }))).status).toBe(413);
    expect(await row(event)).toBeNull();
    const small = envelope("order.fulfilled", { orderId: "ord_z", padding: "x".repeat(1000) });
    expect((await deliver(delivery(small, { stream: true }))).status).toBe(200);
  });

  test("a duplicate delivery is acknowledged and never processed twice", async () => {
    const event = envelope("vendor.custom", { anything: 1 });
    expect((await deliver(delivery(event))).body).toEqual({ received: true, duplicate: false });
    expect((await deliver(delivery(event))).body).toEqual({ received: true, duplicate: true });
    // A retry may carry a new timestamp and signature: same id, same answer.
    expect((await deliver(delivery(event, { timestampSeconds: now() - 60 }))).body).toEqual({ received: true, duplicate: true });
    expect(await processEvent(headerId(event))).toEqual({ outcome: "unknown_kind" });
    expect((await deliver(delivery(event))).body).toEqual({ received: true, duplicate: true });
    expect(await processEvent(headerId(event))).toEqual({ outcome: "skipped", state: "unknown_kind" });
    expect(await row(event)).toMatchObject({ state: "unknown_kind", attempts: 1 });
  });

  test("an event that fails in its job is queued for a retry that keeps its order id, so it stays in turn with that order", async () => {
    const orderId = `ord_gone_${randomUUID().slice(0, 8)}`;
    const event = envelope("order.fulfilled", { orderId });
    expect((await deliver(delivery(event))).status).toBe(200);
    await runEventJobs();
    expect(await row(event)).toMatchObject({ state: "failed", attempts: 1 });
    const [retry] = await eventJobsFor([headerId(event)], ["retry"]);
    expect(retry).toEqual({ eventId: headerId(event), orderId });
  });

  test("unknown kinds are stored and marked, not dropped", async () => {
    const event = envelope("order.disputed.v2", {});
    await deliver(delivery(envelope("catalog.changed", { productId: "p1" })));
    expect((await deliver(delivery(envelope("wallet.debited", { amount: 3 })))).status).toBe(200);
    expect((await deliver(delivery(event))).status).toBe(200);
    // order.* without an orderId cannot be processed, ever: failed once, not retried forever.
    expect(await processEvent(headerId(event))).toEqual({ outcome: "failed" });
    expect(await row(event)).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: expect.stringContaining("invalid_payload"),
    });
  });

  test("a failed event is visible, retried, and an admin can reprocess it (audited)", async () => {
    const event = envelope("order.fulfilled", { orderId: `ord_missing_${randomUUID().slice(0, 8)}`, status: "fulfilled" });
    await deliver(delivery(event));
    const id = headerId(event);
    await expect(processEvent(id)).rejects.toMatchObject({ code: "not_found" });
    expect(await row(event)).toMatchObject({ state: "failed", attempts: 1, lastError: expect.stringContaining("not_found") });
    await expect(processEvent(id)).rejects.toMatchObject({ code: "not_found" });
    const failed = await row(event);
    expect(failed).toMatchObject({ state: "failed", attempts: 2 });
    expect(failed?.lastError).not.toContain(sandbox().apiKey);

    const buyer = await makeStaff(["buyer"]);
    await expect(reprocessEvent(buyer, id)).rejects.toMatchObject({ code: "forbidden" });
    const admin = await makeStaff(["admin"]);
    expect(await reprocessEvent(admin, id)).toMatchObject({ id, state: "pending" });
    expect(await row(event)).toMatchObject({ state: "pending", attempts: 2 });
    const audit = await db().auditEvent.findFirst({ where: { action: "webhook.reprocess", targetId: id } });
    expect(audit).toMatchObject({
      actorId: admin.staffId,
      details: { type: "order.fulfilled", previousState: "failed", attempts: 2 },
    });
    await expect(reprocessEvent(admin, id)).rejects.toMatchObject({ code: "conflict" });
    await expect(reprocessEvent(admin, "0".repeat(32))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("processing order and flood", () => {
  test("out-of-order events for one real order leave the mirror at the newest state", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const { order } = await placeOrder(buyer, {
      idempotencyKey: randomUUID(),
      clientReference: `wh-order-${randomUUID().slice(0, 8)}`,
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    });
    // The sandbox's own envelopes for this order, as it would have delivered them.
    const [processing, fulfilled] = await eventually(async () => {
      const found = await Promise.all(
        ["order.processing", "order.fulfilled"].map(async (type) =>
          ((await control("GET", `/events?type=${type}`)) as { items: { envelope: Envelope }[] }).items
            .map((i) => i.envelope)
            .find((e) => e.data?.orderId === order.id),
        ),
      );
      return found[0] && found[1] ? ([found[0], found[1]] as const) : undefined;
    });
    expect(new Date(fulfilled.occurredAtUtc!) >= new Date(processing.occurredAtUtc!)).toBe(true);

    expect((await deliver(delivery(fulfilled))).status).toBe(200);
    expect(await processEvent(headerId(fulfilled))).toEqual({ outcome: "processed" });
    expect(await db().order.findUnique({ where: { id: order.id } })).toMatchObject({
      status: "fulfilled",
      lastEventAt: new Date(fulfilled.occurredAtUtc!),
    });

    expect((await deliver(delivery(processing))).status).toBe(200);
    expect(await processEvent(headerId(processing))).toEqual({ outcome: "processed" });
    expect(await db().order.findUnique({ where: { id: order.id } })).toMatchObject({
      status: "fulfilled",
      lastEventAt: new Date(fulfilled.occurredAtUtc!),
    });
  });

  test("a flood of 1,000 deliveries with duplicates: 600 events stored and each processed exactly once, no forgery accepted", async () => {
    const events = Array.from({ length: 600 }, (_, i) =>
      envelope("wallet.credited", { amount: (i + 1) / 100, currency: "USD", availableBalance: 10_000 + (i + 1) / 100 }),
    );
    // 300 sent once, 200 twice, 100 three times: 1,000 genuine deliveries, in a fixed shuffled order.
    const copies = (i: number) => (i < 300 ? 1 : i < 500 ? 2 : 3);
    const genuine = events.flatMap((e, i) => Array.from({ length: copies(i) }, () => e));
    expect(genuine).toHaveLength(1000);
    // 50 forgeries of genuine ids, interleaved: half signed with a wrong secret, half a genuine signature on a changed body.
    const forged = events.slice(0, 50).map((e, i) => ({ e, kind: i % 2 ? ("wrong-secret" as const) : ("tampered" as const) }));
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const all = [...genuine.map((e) => ({ e, kind: "genuine" as const })), ...forged].sort(() => random() - 0.5);
    const request = (d: (typeof all)[number]) =>
      d.kind === "genuine"
        ? delivery(d.e)
        : d.kind === "wrong-secret"
          ? delivery(d.e, { secret: "svcwh_forger" })
          : withBody(delivery(d.e), JSON.stringify({ ...d.e, data: { ...d.e.data, amount: 1e6 } }));

    const results: { forged: boolean; status: number; duplicate?: unknown }[] = [];
    for (let i = 0; i < all.length; i += 50) {
      const batch = all.slice(i, i + 50).map(async (d) => {
        const res = await deliver(request(d));
        return { forged: d.kind !== "genuine", status: res.status, duplicate: res.body.duplicate };
      });
      results.push(...(await Promise.all(batch)));
    }
    expect(results.filter((r) => r.forged).every((r) => r.status === 401)).toBe(true);
    expect(results.filter((r) => !r.forged).every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => !r.forged && r.duplicate === false)).toHaveLength(600);
    const ids = events.map(headerId);
    expect(await db().webhookEvent.count({ where: { id: { in: ids } } })).toBe(600);

    // Four workers taking the events' jobs at once: every event claimed by exactly one.
    await runEventJobs(4);
    const rows = await db().webhookEvent.findMany({ where: { id: { in: ids } }, select: { state: true, attempts: true } });
    expect(rows.filter((r) => r.state === "processed" && r.attempts === 1)).toHaveLength(600);
    const credits = await db().walletCredit.findMany({ where: { eventId: { in: ids } } });
    expect(credits).toHaveLength(600);
    expect(credits.reduce((sum, c) => sum + c.amountMinor, 0n)).toBe(BigInt((600 * 601) / 2));
    expect(await db().walletCredit.count({ where: { eventId: { in: ids }, amountMinor: 100_000_000n } })).toBe(0);
  });
});

/** The same headers (a genuine signature) on another body. */
function withBody(genuine: Request, body: string): Request {
  return new Request(genuine.url, { method: "POST", headers: genuine.headers, body });
}
