import { createHmac, randomUUID } from "node:crypto";
import { POST } from "@/app/api/webhooks/service/route";
import type { Job, JobResult } from "pg-boss";
import { db } from "@/lib/db/client";
import { getQueue } from "@/lib/jobs/queue";
import { readyQueue } from "@/lib/jobs/send-job";
import { WEBHOOK_EVENT_QUEUE, type EventJob } from "@/lib/webhooks/event-job";
import { webhookJobs } from "@/lib/webhooks/jobs";
import { expect } from "vitest";
import { processEvent } from "@/lib/webhooks/process-event";
import { control, sandbox } from "../support/sandbox";

/** Builds deliveries exactly as the upstream sends them (sandbox/webhook-delivery.ts), for the receiver tests. */
export type Envelope = { id: string; type: string; occurredAtUtc?: string; data?: Record<string, unknown> };

export function envelope(type: string, data: Record<string, unknown> = {}, over: Partial<Envelope> = {}): Envelope {
  const occurredAtUtc = over.occurredAtUtc ?? new Date().toISOString();
  return { id: randomUUID(), type, occurredAtUtc, data: { occurredAtUtc, ...data }, ...over };
}

export const headerId = (e: Envelope) => e.id.replaceAll("-", "");

export function sign(secret: string, timestamp: string, eventId: string, body: string | Buffer): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${eventId}.`).update(body).digest("hex")}`;
}

export function delivery(
  event: Envelope | { raw: string | Buffer; eventId: string },
  options: { secret?: string; timestampSeconds?: number; headers?: Record<string, string | null>; stream?: boolean } = {},
): Request {
  const body = "raw" in event ? event.raw : JSON.stringify(event);
  const eventId = "raw" in event ? event.eventId : headerId(event);
  const timestamp = String(options.timestampSeconds ?? Math.floor(Date.now() / 1000));
  const headers = new Headers({
    "content-type": "application/json",
    "x-service-event-id": eventId,
    "x-service-timestamp": timestamp,
    "x-service-signature": sign(options.secret ?? sandbox().webhookSecret, timestamp, eventId, body),
    "x-service-delivery-contract": "service-webhook-at-least-once-v1",
  });
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  if (options.stream) {
    // Chunked, without a Content-Length: the size limit must hold while reading too.
    const bytes = Buffer.from(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16_384) controller.enqueue(bytes.subarray(i, i + 16_384));
        controller.close();
      },
    });
    return new Request("http://localhost/api/webhooks/service", {
      method: "POST",
      headers,
      body: stream,
      duplex: "half",
    } as RequestInit);
  }
  return new Request("http://localhost/api/webhooks/service", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
}

export async function deliver(req: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await POST(req);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The sandbox's own wallet.credited event for a deposit of `amount`, received by our webhook route and processed. */
export async function receiveCredit(amount: number): Promise<void> {
  const events = (await control("GET", "/events?type=wallet.credited")) as { items: { envelope: Envelope }[] };
  const event = events.items
    .map((e) => e.envelope)
    .reverse()
    .find((e) => Number(e.data?.amount) === amount);
  if (!event) throw new Error(`no wallet.credited event for ${amount}`);
  expect((await deliver(delivery(event))).status).toBe(200);
  expect((await processEvent(headerId(event))).outcome).toBe("processed");
}

/** Makes the inbox INSERT fail for one event id with the given SQLSTATE, for the body of `run`. */
export async function withInsertFailing<T>(id: string, sqlState: string, run: () => Promise<T>): Promise<T> {
  const name = `refuse_${randomUUID().replaceAll("-", "")}`;
  await db().$executeRawUnsafe(
    `CREATE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test' USING ERRCODE = '${sqlState}'; END $$`,
  );
  await db().$executeRawUnsafe(
    `CREATE TRIGGER "${name}" BEFORE INSERT ON "WebhookEvent" FOR EACH ROW WHEN (NEW."id" = '${id}' AND NEW."state" = 'pending') EXECUTE FUNCTION "${name}"()`,
  );
  try {
    return await run();
  } finally {
    await db().$executeRawUnsafe(`DROP TRIGGER "${name}" ON "WebhookEvent"`);
    await db().$executeRawUnsafe(`DROP FUNCTION "${name}"()`);
  }
}

/** The event jobs waiting (or waiting to retry) for these events, as the worker would fetch them. */
export async function eventJobsFor(
  ids: string[],
  states = ["created", "retry"],
): Promise<{ eventId: string; orderId?: string }[]> {
  const rows = await db().$queryRawUnsafe<{ data: { eventId: string; orderId?: string } }[]>(
    `SELECT data FROM pgboss.job WHERE name = $1 AND data->>'eventId' = ANY($2::text[]) AND state::text = ANY($3::text[])`,
    WEBHOOK_EVENT_QUEUE.name,
    ids,
    states,
  );
  return rows.map((r) => r.data);
}

/** What one worker's fetch of event jobs takes now: pg-boss's fetch with the worker's own options. */
export async function takeEventJobs(): Promise<Job<EventJob>[]> {
  const jobs = await getQueue();
  await readyQueue(WEBHOOK_EVENT_QUEUE);
  const { batchSize, groupConcurrency } = eventJobs().work(jobs.embedded);
  return jobs.boss.fetch<EventJob>(WEBHOOK_EVENT_QUEUE.name, { batchSize, groupConcurrency });
}

/**
 * Runs the waiting event jobs as `lanes` workers would: each takes a batch, runs the worker's
 * own handler and settles each job as it reports, until none is left to take.
 */
export async function runEventJobs(lanes = 1): Promise<void> {
  const jobs = await getQueue();
  const name = WEBHOOK_EVENT_QUEUE.name;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (;;) {
        const batch = await takeEventJobs();
        if (batch.length === 0) return;
        for (const result of (await eventJobs().handle(batch as Job<never>[], jobs)) as JobResult[])
          if (result.status === "completed") await jobs.boss.complete(name, result.id);
          else await jobs.boss.fail(name, result.id, result.output);
      }
    }),
  );
}

const eventJobs = () => webhookJobs.find((d) => d.queue === WEBHOOK_EVENT_QUEUE)!;
