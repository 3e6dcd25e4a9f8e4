import { afterAll, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { getQueue, stopQueues } from "@/lib/jobs/queue";
import { WEBHOOK_EVENT_QUEUE } from "@/lib/webhooks/event-job";
import { listEvents } from "@/lib/webhooks/list-events";
import { reprocessEvent } from "@/lib/webhooks/reprocess-event";
import { makeStaff } from "../support/db";
import { deliver, delivery, envelope, eventJobsFor, headerId, runEventJobs } from "./webhook-support";

afterAll(async () => {
  await stopQueues();
});

/** The ids of the event's jobs in `state` (pg-boss's table, as an operator would look). */
const jobIds = async (eventId: string, state: string, queue = WEBHOOK_EVENT_QUEUE.name) =>
  (
    await db().$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM pgboss.job WHERE name = $1 AND data->>'eventId' = $2 AND state::text = $3`,
      queue,
      eventId,
      state,
    )
  ).map((row) => row.id);

test("an event that fails on every attempt goes to webhooks.dead after the last, is listed as failed with its reason, and an admin can send it back", async () => {
  const orderId = `ord_never_${randomUUID().slice(0, 8)}`;
  const event = envelope("order.fulfilled", { orderId });
  const id = headerId(event);
  expect((await deliver(delivery(event))).status).toBe(200);
  const { boss } = await getQueue();
  const attempts = (WEBHOOK_EVENT_QUEUE.options.retryLimit ?? 0) + 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await runEventJobs();
    expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({ state: "failed", attempts: attempt });
    // The retry's backoff (5 s doubling) is waited out at once.
    for (const retry of await jobIds(id, "retry"))
      await boss.update({ name: WEBHOOK_EVENT_QUEUE.name, options: { id: retry, startAfter: new Date() } });
  }
  expect(await jobIds(id, "retry")).toEqual([]);
  expect(await jobIds(id, "failed")).toHaveLength(1);
  expect(await jobIds(id, "created", "webhooks.dead")).toHaveLength(1);

  const admin = await makeStaff(["admin"]);
  const failed = (await listEvents(admin, { state: "failed", kind: "order.fulfilled" })).rows.find((row) => row.id === id);
  expect(failed).toMatchObject({ state: "failed", attempts, lastError: expect.stringContaining("not_found") });

  expect(await reprocessEvent(admin, id)).toMatchObject({ id, state: "pending" });
  expect(await eventJobsFor([id], ["created"])).toEqual([{ eventId: id, orderId }]);
  await runEventJobs();
  expect(await db().webhookEvent.findUnique({ where: { id } })).toMatchObject({ state: "failed", attempts: attempts + 1 });
});
