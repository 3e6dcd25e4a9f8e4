import { afterAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { stopQueues } from "@/lib/jobs/queue";
import { deliver, delivery, envelope, eventJobsFor, headerId, withInsertFailing, type Envelope } from "./webhook-support";

/**
 * Deliveries that arrive together share one inbox transaction (lib/webhooks/store-inbox-event.ts).
 * What a sender sees must not change: each delivery gets its own answer, a 200 only once its
 * row is committed, and a batch that fails acknowledges none of its deliveries. Each new row's
 * job commits with it (lib/webhooks/event-job.ts); a repeat adds none.
 */
afterAll(async () => {
  await stopQueues();
});

const stored = async (ids: string[]) =>
  new Set((await db().webhookEvent.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id));

const deliverAll = (events: Envelope[]) => Promise.all(events.map((e) => deliver(delivery(e))));

describe("deliveries arriving together", () => {
  test("are each answered for themselves: every event stored once, repeats acknowledged as duplicates, one job per event", async () => {
    const events = Array.from({ length: 24 }, (_, i) => envelope("order.fulfilled", { orderId: `ord_batch_${i}` }));
    // Each of the first eight is sent three times at once, as a sender's retries may overlap.
    const sent = [...events, ...events.slice(0, 8), ...events.slice(0, 8)];
    const answers = await deliverAll(sent);

    expect(answers.every((a) => a.status === 200)).toBe(true);
    for (const event of events) {
      const mine = answers.filter((_, i) => sent[i] === event).map((a) => a.body.duplicate);
      expect(
        mine.filter((d) => d === false),
        headerId(event),
      ).toHaveLength(1);
    }
    const ids = events.map(headerId);
    expect((await stored(ids)).size).toBe(24);
    // However many batches the 40 deliveries made, each event has one job, committed with its row.
    expect((await eventJobsFor(ids)).map((job) => job.eventId).sort()).toEqual([...ids].sort());
  });

  test("a batch the database fails acknowledges none of its deliveries, and stores none of the refused ones", async () => {
    const events = Array.from({ length: 10 }, (_, i) => envelope("order.fulfilled", { orderId: `ord_fail_${i}` }));
    const poisoned = headerId(events[3]!);
    const answers = await withInsertFailing(poisoned, "40001", () => deliverAll(events));

    const ids = events.map(headerId);
    const rows = await stored(ids);
    answers.forEach((answer, i) => {
      // No acknowledgement without the row; a refusal (the sender retries) leaves nothing behind.
      if (answer.status === 200) expect(rows.has(ids[i]!)).toBe(true);
      else expect({ status: answer.status, stored: rows.has(ids[i]!) }).toEqual({ status: 503, stored: false });
    });
    expect(answers[3]!.status).toBe(503);
    expect(rows.has(poisoned)).toBe(false);

    // The sender's retries, once the database is well again, are stored as new.
    const retried = await deliverAll(events.filter((_, i) => answers[i]!.status !== 200));
    expect(retried.every((a) => a.status === 200 && a.body.duplicate === false)).toBe(true);
    expect((await stored(ids)).size).toBe(10);
    expect((await eventJobsFor(ids)).map((job) => job.eventId).sort()).toEqual([...ids].sort());
  });

  test("one event whose data the database refuses is refused alone; the rest of its batch is stored", async () => {
    const events = Array.from({ length: 10 }, (_, i) => envelope("order.fulfilled", { orderId: `ord_mixed_${i}` }));
    const refused = headerId(events[5]!);
    const answers = await withInsertFailing(refused, "22023", () => deliverAll(events));

    expect(answers.map((a) => a.status)).toEqual(events.map((_, i) => (i === 5 ? 422 : 200)));
    const ids = events.map(headerId);
    expect((await stored(ids)).size).toBe(10); // nine pending, the refused one kept for the admin
    expect(await db().webhookEvent.findUnique({ where: { id: refused } })).toMatchObject({ state: "refused" });
    expect((await eventJobsFor(ids)).map((job) => job.eventId).sort()).toEqual(ids.filter((id) => id !== refused).sort());
  });
});
