import { afterAll, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { getQueue, stopQueues } from "@/lib/jobs/queue";
import { WEBHOOK_EVENT_QUEUE } from "@/lib/webhooks/event-job";
import { listEvents } from "@/lib/webhooks/list-events";
import { reprocessEvent } from "@/lib/webhooks/reprocess-event";
import { makeStaff } from "../support/db";
import { deliver, delivery, envelope, eventJobsFor, headerId, runEventJobs, takeEventJobs } from "./webhook-support";

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

test("one order's events are taken one at a time, in the order they came, other orders beside them", async () => {
  await runEventJobs(); // what earlier files left waiting
  const orderId = `ord_turn_${randomUUID().slice(0, 8)}`;
  const [first, second, other] = [
    envelope("order.processing", { orderId }),
    envelope("order.fulfilled", { orderId }),
    envelope("order.fulfilled", { orderId: `${orderId}_other` }),
  ];
  // Delivered together: one inbox batch, one transaction, their jobs sharing one creation time.
  await Promise.all([first, second, other].map((e) => deliver(delivery(e))));
  const { boss } = await getQueue();
  const taken = await takeEventJobs();
  const ids = (jobs: { data: { eventId: string } }[]) => jobs.map((job) => job.data.eventId).sort();
  expect(ids(taken)).toEqual([headerId(first), headerId(other)].sort());
  // While the first runs, another worker takes nothing of that order.
  expect(await takeEventJobs()).toEqual([]);
  for (const job of taken) await boss.complete(WEBHOOK_EVENT_QUEUE.name, job.id);
  const next = await takeEventJobs();
  expect(ids(next)).toEqual([headerId(second)]);
  for (const job of next) await boss.complete(WEBHOOK_EVENT_QUEUE.name, job.id);
});

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
