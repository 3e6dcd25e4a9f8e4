import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { POST } from "@/app/api/webhooks/service/route";
import { db } from "@/lib/db/client";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { WORKER_JOBS } from "@/lib/worker-jobs";
import { placeOrder } from "@/lib/orders/place-order";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control, eventually } from "../support/sandbox";
import { deliver, delivery, envelope, headerId } from "./webhook-support";

// The queue path: events received through the route are processed by the worker's jobs,
// with no direct call to the processing functions.
let worker: Worker;
let server: Server;
let endpointId: string | undefined;
const lostId = randomUUID().replaceAll("-", "");

beforeAll(async () => {
  // An event whose job was lost between the inbox insert and the queue: only the sweep can find it.
  await db().webhookEvent.create({
    data: {
      id: lostId,
      type: "vendor.lost",
      payload: { id: lostId, type: "vendor.lost" },
      receivedAt: new Date(Date.now() - 60_000),
    },
  });
  worker = await startWorker(WORKER_JOBS);
  server = await serve();
});

afterAll(async () => {
  if (endpointId) await control("DELETE", `/webhook-endpoints/${endpointId}`);
  await new Promise((resolve) => server.close(resolve));
  await worker.stop();
});

const stateOf = async (id: string) => (await db().webhookEvent.findUnique({ where: { id } }))?.state;

describe("the worker", () => {
  test("processes a received event through the queue", async () => {
    const event = envelope("wallet.credited", { amount: 12.34, currency: "USD", availableBalance: 1012.34 });
    expect((await deliver(delivery(event))).status).toBe(200);
    await eventually(async () => (await stateOf(headerId(event))) === "processed", 20_000);
    expect(await db().walletCredit.findUnique({ where: { eventId: headerId(event) } })).toMatchObject({
      amountMinor: 1234n,
      currency: "USD",
      availableBalanceMinor: 101234n,
    });
    expect(await db().webhookEvent.findUnique({ where: { id: headerId(event) } })).toMatchObject({ attempts: 1 });
  });

  test("the sweep finds an event whose job was lost, and a failing event is retried with backoff", async () => {
    const failing = envelope("order.fulfilled", { orderId: `ord_gone_${randomUUID().slice(0, 8)}` });
    await deliver(delivery(failing));
    // The queue's second attempt comes after its backoff (5 s doubling), not at once. Its first
    // failure is watched for at once, so that the time measured from it starts when it failed.
    const first = await eventually(async () => {
      const row = await db().webhookEvent.findUnique({ where: { id: headerId(failing) } });
      return row?.state === "failed" ? row : undefined;
    }, 20_000);
    expect(first.attempts).toBe(1);
    const failedAt = Date.now();
    const retried = await eventually(
      async () => {
        const row = await db().webhookEvent.findUnique({ where: { id: headerId(failing) } });
        return row && row.attempts >= 2 && row.state === "failed" ? row : undefined;
      },
      40_000,
      200,
    );
    expect(Date.now() - failedAt).toBeGreaterThan(2_000);
    expect(retried.lastError).toContain("not_found");
    await eventually(async () => (await stateOf(lostId)) === "unknown_kind", 30_000, 200);
  });

  test("deliveries from the upstream itself are stored and processed, end to end", async () => {
    const { port } = server.address() as AddressInfo;
    endpointId = (
      (await control("POST", "/webhook-endpoints", {
        url: `http://127.0.0.1:${port}/api/webhooks/service`,
        eventTypes: ["order.processing", "order.fulfilled", "wallet.credited"],
      })) as { id: string }
    ).id;

    const cents = 100 + Math.floor(Math.random() * 9_000);
    await control("POST", "/deposits", { amount: cents / 100, currency: "USD" });
    const credit = await eventually(
      () =>
        db()
          .walletCredit.findFirst({ where: { amountMinor: BigInt(cents), createdAt: { gte: new Date(Date.now() - 60_000) } } })
          .then((c) => c ?? undefined),
      20_000,
    );
    expect(await stateOf(credit.eventId)).toBe("processed");

    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const { order } = await placeOrder(buyer, {
      idempotencyKey: randomUUID(),
      clientReference: `wh-e2e-${randomUUID().slice(0, 8)}`,
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    });
    const forOrder = { type: { startsWith: "order." }, payload: { path: ["data", "orderId"], equals: order.id } };
    await eventually(async () => (await db().webhookEvent.count({ where: { ...forOrder, state: "processed" } })) === 2, 20_000);
    const events = await db().webhookEvent.findMany({ where: forOrder });
    expect(events.map((e) => e.type).sort()).toEqual(["order.fulfilled", "order.processing"]);
    expect(await db().order.findUnique({ where: { id: order.id } })).toMatchObject({
      status: "fulfilled",
      lastEventAt: events.find((e) => e.type === "order.fulfilled")?.occurredAt,
    });
  });
});

/** The route behind a real HTTP server, as the upstream reaches it. */
async function serve(): Promise<Server> {
  const srv = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await POST(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: new Uint8Array(Buffer.concat(chunks)) }),
    );
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return srv;
}
