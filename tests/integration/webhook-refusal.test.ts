import { afterAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { POST } from "@/app/api/webhooks/service/route";
import { db } from "@/lib/db/client";
import { stopQueues } from "@/lib/jobs/queue";
import { countEventsByState } from "@/lib/webhooks/count-events";
import { listEvents } from "@/lib/webhooks/list-events";
import { processEvent } from "@/lib/webhooks/process-event";
import { reprocessEvent } from "@/lib/webhooks/reprocess-event";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control, eventually, sandbox } from "../support/sandbox";
import { deliver, delivery, envelope, headerId, runEventJobs, withInsertFailing } from "./webhook-support";

afterAll(async () => {
  await stopQueues();
});

// Contract §6 rule 4: these 4xx are retried by the sender; any other 4xx is final.
const RETRIED_4XX = [401, 403, 404, 408, 410, 425, 429];
const now = () => Math.floor(Date.now() / 1000);

describe("a signed event the database can never store", () => {
  test.each([
    [
      "a NUL in a value",
      { orderId: `ord_${randomUUID().slice(0, 8)}`, clientReference: "ref\u0000x" },
      "$.data.clientReference",
      "ref\\u0000x",
    ],
    [
      "an unpaired surrogate in a value",
      { orderId: `ord_${randomUUID().slice(0, 8)}`, clientReference: "ref\ud800x" },
      "$.data.clientReference",
      "ref\\ud800x",
    ],
    [
      "a NUL in a field name",
      { orderId: `ord_${randomUUID().slice(0, 8)}`, "note\u0000": 1 },
      "$.data.note\\u0000 (its name)",
      "note\\u0000",
    ],
  ])(
    "with %s is refused for good (4xx), shown to an admin, and refused the same way when redelivered",
    async (_what, data, path, escaped) => {
      const event = envelope("order.fulfilled", data);
      const id = headerId(event);
      const first = await deliver(delivery(event));
      expect(first.status).toBe(422);
      expect(RETRIED_4XX).not.toContain(first.status);
      expect(first.body).toMatchObject({ code: "unstorable_event", status: 422 });
      expect(String(first.body.detail)).toContain(path);

      const admin = await makeStaff(["admin"]);
      const listed = (await listEvents(admin, { state: "refused", kind: "order.fulfilled" }, { limit: 200 })).rows.find(
        (r) => r.id === id,
      );
      expect(listed).toMatchObject({
        type: "order.fulfilled",
        state: "refused",
        attempts: 1,
        occurredAt: new Date(event.occurredAtUtc!),
      });
      expect(listed?.lastError).toContain(path);
      expect(listed?.refusedBody).toContain(escaped);
      expect(listed?.refusedBody).toContain(id.slice(0, 8));
      expect((await countEventsByState(admin)).refused).toBeGreaterThanOrEqual(1);

      // The sender's retry: same bytes, new timestamp and signature; same answer, one row.
      const again = await deliver(delivery(event, { timestampSeconds: now() - 30 }));
      expect(again).toMatchObject({ status: 422, body: { code: "unstorable_event" } });
      expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({ state: "refused", attempts: 2 });
      expect(await db().webhookEvent.count({ where: { id } })).toBe(1);

      // Never processed, never sent back to the queue.
      expect(await processEvent(id)).toEqual({ outcome: "skipped", state: "refused" });
      await expect(reprocessEvent(admin, id)).rejects.toMatchObject({ code: "conflict" });
      expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({ state: "refused" });
    },
  );

  test("nothing else is affected: clean events around it are stored and processed as before", async () => {
    const bad = envelope("wallet.credited", { amount: 1, currency: "USD\u0000" });
    const good = envelope("wallet.credited", { amount: 0.42, currency: "USD", availableBalance: 10_000.42 });
    expect((await deliver(delivery(bad))).status).toBe(422);
    expect(await deliver(delivery(good))).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await deliver(delivery(good))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await runEventJobs();
    expect(await db().webhookEvent.findUnique({ where: { id: headerId(good) } })).toMatchObject({ state: "processed" });
    expect(await db().walletCredit.count({ where: { eventId: headerId(good) } })).toBe(1);
    expect(await db().webhookEvent.findUnique({ where: { id: headerId(bad) } })).toMatchObject({ state: "refused", attempts: 1 });
    expect(await db().walletCredit.count({ where: { eventId: headerId(bad) } })).toBe(0);
  });

  test("from the upstream itself: an order whose reference holds a NUL is delivered once, parked as rejected, and listed as refused", async () => {
    const { server, url } = await receiverOverHttp();
    const endpoint = (await control("POST", "/webhook-endpoints", { url, eventTypes: ["order.processing"] })) as { id: string };
    try {
      const product = await variantProduct();
      const res = await fetch(`${sandbox().baseUrl}/api/v1/orders`, {
        method: "POST",
        headers: { "X-Api-Key": sandbox().apiKey, "Idempotency-Key": randomUUID(), "content-type": "application/json" },
        body: JSON.stringify({
          clientReference: `nul-\u0000-${randomUUID().slice(0, 8)}`,
          item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
        }),
      });
      expect(res.status).toBe(202);
      const orderId = ((await res.json()) as { id: string }).id;
      type Delivery = {
        id: string;
        eventId: string;
        status: string;
        parkedReason: string | null;
        attemptCount: number;
        payload: { data: { orderId: string } };
      };
      const parked = async () =>
        ((await control("GET", `/webhook-deliveries?endpointId=${endpoint.id}`)) as { items: Delivery[] }).items.find(
          (d) => d.payload.data.orderId === orderId && d.status === "parked",
        );
      const first = await eventually(parked, 20_000);
      expect(first).toMatchObject({ parkedReason: "rejected", attemptCount: 1 });
      const id = first.eventId.replaceAll("-", "");
      expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({
        type: "order.processing",
        state: "refused",
        attempts: 1,
      });

      // An operator redelivers it: the same final answer, counted on the same row.
      await control("POST", `/webhook-deliveries/${first.id}/redeliver`);
      const again = await eventually(async () => {
        const d = await parked();
        return d && d.attemptCount === 2 ? d : undefined;
      }, 20_000);
      expect(again).toMatchObject({ parkedReason: "rejected" });
      expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({ state: "refused", attempts: 2 });
    } finally {
      await control("DELETE", `/webhook-endpoints/${endpoint.id}`);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  // What the pre-check does not know yet, the database decides: a data exception (SQLSTATE
  // class 22) comes back on every retry, so it is final; anything else may pass, so "retry later".
  test.each([
    ["a data exception is refused for good and kept for the admin", "22023", 422, "refused"],
    ["any other failure asks the sender to retry later and keeps nothing", "40001", 503, null],
  ])("when the inbox insert fails: %s", async (_what, sqlState, status, state) => {
    const event = envelope("order.fulfilled", { orderId: "ord_db_refusal" });
    const id = headerId(event);
    await withInsertFailing(id, sqlState, async () => {
      const res = await deliver(delivery(event));
      expect(res.status).toBe(status);
      const stored = await db().webhookEvent.findUnique({ where: { id } });
      expect(stored?.state ?? null).toBe(state);
      if (state) expect(stored?.lastError).toContain(sqlState);
    });
  });

  test("an unsigned or forged delivery with a NUL is refused as before and leaves no trace", async () => {
    const event = envelope("order.fulfilled", { orderId: "ord_forged", clientReference: "x\u0000" });
    expect((await deliver(delivery(event, { secret: "svcwh_forger" }))).status).toBe(401);
    expect(await db().webhookEvent.count({ where: { id: headerId(event) } })).toBe(0);
  });
});

/** The app's webhook route served over loopback HTTP, so that the sandbox can deliver to it. */
async function receiverOverHttp(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const answer = await POST(
        new Request(`http://127.0.0.1${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }),
      );
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/service` };
}
