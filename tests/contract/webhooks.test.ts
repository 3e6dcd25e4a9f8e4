import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../sandbox/signature";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { findProduct, inlineItem, isVariantGiftCard } from "./support/catalog";
import { startReceiver, type Receiver } from "./support/receiver";
import { waitFor } from "./support/wait";

// The receiver side is computed here independently with node:crypto, never with the sandbox's own signer.
function expectedSignature(secret: string, timestamp: string, eventId: string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${eventId}.${body}`).digest("hex")}`;
}

let sb: TestSandbox;
let product: Json;
const receivers: Receiver[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
  product = await findProduct(sb, isVariantGiftCard);
});
afterAll(async () => {
  await sb.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiverFor(statuses: number[], extra: Json = {}): Promise<{ receiver: Receiver; endpoint: Json }> {
  const receiver = await startReceiver(statuses);
  receivers.push(receiver);
  const endpoint = (await sb.control("POST", "/webhook-endpoints", { url: receiver.url, ...extra })).body;
  return { receiver, endpoint };
}

async function deliveriesOf(endpointId: string): Promise<Json[]> {
  return (await sb.control("GET", `/webhook-deliveries?endpointId=${endpointId}`)).body.items;
}

async function unregister(endpointId: string): Promise<void> {
  await sb.control("DELETE", `/webhook-endpoints/${endpointId}`);
}

let refs = 0;
async function placeFulfilledOrder(): Promise<Json> {
  const ref = `wh-${++refs}`;
  const order = (
    await sb.api("/orders", { body: { item: inlineItem(product), clientReference: ref }, headers: { "Idempotency-Key": ref } })
  ).body;
  await waitFor(async () => (await sb.api(`/orders/${order.id}`)).body.status === "fulfilled", "fulfilment");
  return order;
}

describe("webhook signatures", () => {
  it("match the fixed test vector", () => {
    const body =
      '{"id":"0f8fad5b-d9cb-469f-a165-70867728950e","type":"order.fulfilled","occurredAtUtc":"2023-11-14T22:13:20.000Z","data":{"orderId":"ord_test","clientReference":"ref-1","status":"fulfilled","occurredAtUtc":"2023-11-14T22:13:20.000Z"}}';
    const expected = "v1=3a0c598e6c16d0fcc6d9d0cacebbb6a3e76900ba3f389385537d4c44240b8607";
    expect(signWebhook("svcwh_testsecret0123456789", "1700000000", "0f8fad5bd9cb469fa16570867728950e", body)).toBe(expected);
    expect(expectedSignature("svcwh_testsecret0123456789", "1700000000", "0f8fad5bd9cb469fa16570867728950e", body)).toBe(
      expected,
    );
  });

  it("deliver every order event with the contract headers, a verifiable signature and no artifacts", async () => {
    const { receiver, endpoint } = await receiverFor([200]);
    expect(endpoint.secret).toBe(sb.webhookSecret); // registered without a secret: the sandbox default
    const order = await placeFulfilledOrder();
    const received = await waitFor(() => receiver.received.length >= 2 && receiver.received, "two deliveries");
    const types = received.map((r) => JSON.parse(r.body).type).sort();
    expect(types).toEqual(["order.fulfilled", "order.processing"]);
    for (const { headers, body } of received) {
      const envelope = JSON.parse(body);
      expect(Object.keys(envelope).sort()).toEqual(["data", "id", "occurredAtUtc", "type"]);
      expect(envelope.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(headers["x-service-event-id"]).toBe(envelope.id.replace(/-/g, ""));
      expect(headers["x-service-event-id"]).toMatch(/^[0-9a-f]{32}$/);
      expect(headers["x-service-delivery-contract"]).toBe("service-webhook-at-least-once-v1");
      const timestamp = headers["x-service-timestamp"] as string;
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
      expect(headers["x-service-signature"]).toBe(
        expectedSignature(sb.webhookSecret, timestamp, headers["x-service-event-id"] as string, body),
      );
      expect(headers["x-service-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
      expect(envelope.data).toEqual({
        orderId: order.id,
        clientReference: order.clientReference,
        status: envelope.type.split(".")[1],
        occurredAtUtc: envelope.occurredAtUtc,
      });
    }
    const artifacts = (
      await sb.api(`/orders/${order.id}/fulfillment`, { method: "POST", headers: { "Idempotency-Key": "wh-reveal" } })
    ).body.artifacts;
    for (const { body } of received) for (const a of artifacts) expect(body).not.toContain(a.value);
    await unregister(endpoint.id);
  });

  it("sign with the endpoint's own secret when one is registered", async () => {
    const secret = "svcwh_my_own_secret_for_this_endpoint";
    const { receiver, endpoint } = await receiverFor([200], { secret, eventTypes: ["order.fulfilled"] });
    await placeFulfilledOrder();
    const [first] = await waitFor(() => receiver.received.length >= 1 && receiver.received, "a delivery");
    const h = first!.headers;
    expect(h["x-service-signature"]).toBe(
      expectedSignature(secret, h["x-service-timestamp"] as string, h["x-service-event-id"] as string, first!.body),
    );
    expect(JSON.parse(first!.body).type).toBe("order.fulfilled"); // the eventTypes filter holds back order.processing
    await unregister(endpoint.id);
  });
});

describe("webhook retries", () => {
  it("retries a 500 with the same event id and a fresh valid signature until a 2xx", async () => {
    const { receiver, endpoint } = await receiverFor([500, 503, 200], { eventTypes: ["order.fulfilled"] });
    await placeFulfilledOrder();
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.status === "delivered", "delivered");
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.attempts.map((a: Json) => a.statusCode)).toEqual([500, 503, 200]);
    expect(new Set(receiver.received.map((r) => r.headers["x-service-event-id"])).size).toBe(1);
    for (const r of receiver.received) {
      expect(r.headers["x-service-signature"]).toBe(
        expectedSignature(
          sb.webhookSecret,
          r.headers["x-service-timestamp"] as string,
          r.headers["x-service-event-id"] as string,
          r.body,
        ),
      );
    }
    await unregister(endpoint.id);
  });

  it("parks a delivery answered 400 after one attempt: a permanent rejection", async () => {
    const { receiver, endpoint } = await receiverFor([400], { eventTypes: ["order.fulfilled"] });
    await placeFulfilledOrder();
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(endpoint.id);
      return list[0]?.status === "parked" && list;
    }, "parked");
    expect(delivery).toMatchObject({ parkedReason: "rejected", attemptCount: 1 });
    expect(receiver.received).toHaveLength(1);
    expect((await sb.control("GET", "/webhook-deliveries?status=parked")).body.items.map((d: Json) => d.id)).toContain(
      delivery.id,
    );
    await unregister(endpoint.id);
  });

  it("retries a 404 (on the contract's retryable list) and parks it after 8 attempts", async () => {
    const { receiver, endpoint } = await receiverFor([404], { eventTypes: ["order.fulfilled"] });
    await placeFulfilledOrder();
    const [delivery] = await waitFor(
      async () => {
        const list = await deliveriesOf(endpoint.id);
        return list[0]?.status === "parked" && list;
      },
      "parked after exhaustion",
      20_000,
    );
    expect(delivery).toMatchObject({ parkedReason: "exhausted", attemptCount: 8 });
    expect(receiver.received).toHaveLength(8);
    // Backoff doubles: each gap is at least the scaled schedule 5 s × 2^n × 0.002.
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i]!.at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(10 * 2 ** i - 5));
    await unregister(endpoint.id);
  });

  it("does not follow redirects: a 302 counts as a failed attempt and is retried", async () => {
    const { endpoint } = await receiverFor([302, 200], { eventTypes: ["order.fulfilled"] });
    await placeFulfilledOrder();
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.status === "delivered", "delivered");
    expect((await deliveriesOf(endpoint.id))[0].attempts.map((a: Json) => a.statusCode)).toEqual([302, 200]);
    await unregister(endpoint.id);
  });

  it("treats no answer within the acknowledgement timeout as a failed attempt", async () => {
    await sb.control("PUT", "/settings", { webhookTimeoutMs: 100 });
    const silent = createServer(() => {}); // accepts and never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const endpoint = (
      await sb.control("POST", "/webhook-endpoints", { url: `http://127.0.0.1:${port}/hook`, eventTypes: ["order.fulfilled"] })
    ).body;
    try {
      await placeFulfilledOrder();
      const [delivery] = await waitFor(async () => {
        const list = await deliveriesOf(endpoint.id);
        return (list[0]?.attempts.length ?? 0) >= 2 && list;
      }, "two timed-out attempts");
      expect(delivery.status).toBe("pending");
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringContaining("100 ms") });
    } finally {
      await unregister(endpoint.id);
      await sb.control("PUT", "/settings", { webhookTimeoutMs: 5000 });
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("redelivers a parked delivery on request from the control plane", async () => {
    const { receiver, endpoint } = await receiverFor([410, 410, 410, 410, 410, 410, 410, 410, 200], {
      eventTypes: ["order.fulfilled"],
    });
    await placeFulfilledOrder();
    const [parked] = await waitFor(
      async () => {
        const list = await deliveriesOf(endpoint.id);
        return list[0]?.status === "parked" && list;
      },
      "parked",
      20_000,
    );
    await expectRefused(sb, () => sb.control("POST", "/webhook-deliveries/dlv_nope/redeliver"), 404, "not_found");
    expect((await sb.control("POST", `/webhook-deliveries/${parked.id}/redeliver`)).status).toBe(202);
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.status === "delivered", "redelivered");
    expect(receiver.received).toHaveLength(9);
    await unregister(endpoint.id);
  });
});

describe("webhook endpoint registration", () => {
  it("rejects a malformed URL or an unknown event type", async () => {
    const res = await expectRefused(
      sb,
      () => sb.control("POST", "/webhook-endpoints", { url: "ftp://example", eventTypes: ["order.shipped"] }),
      400,
      "invalid_request",
    );
    expect(Object.keys(res.body.errors).sort()).toEqual(["eventTypes", "url"]);
  });
});
