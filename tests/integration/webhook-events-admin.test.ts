import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { countEventsByState } from "@/lib/webhooks/count-events";
import { listEvents, type EventRow } from "@/lib/webhooks/list-events";
import { makeStaff } from "../support/db";

// The Events page's data: the inbox, filtered and paged, for admins only.
const kind = `test.admin-${randomUUID().slice(0, 8)}`;
let admin: Actor;

beforeAll(async () => {
  admin = await makeStaff(["admin"]);
  const at = new Date();
  // 25 events with one received time (ties must neither skip nor repeat across pages), 5 failed.
  await db().webhookEvent.createMany({
    data: Array.from({ length: 25 }, (_, i) => ({
      id: randomUUID().replaceAll("-", ""),
      type: i % 5 === 0 ? `${kind}.failed` : `${kind}.ok`,
      payload: { i },
      receivedAt: at,
      state: i % 5 === 0 ? "failed" : "processed",
      attempts: i % 5 === 0 ? 3 : 1,
      lastError: i % 5 === 0 ? "upstream not_found (HTTP 404)" : null,
    })),
  });
});

describe("the Events page's list", () => {
  test("filters by kind family and state, newest first, with the error and attempts", async () => {
    const all = await listEvents(admin, { kind: `${kind}.*`, state: undefined }, { limit: 100 });
    expect(all.rows).toHaveLength(25);
    const failed = await listEvents(admin, { kind: `${kind}.*`, state: "failed" });
    expect(failed.rows).toHaveLength(5);
    expect(failed.rows.every((r) => r.attempts === 3 && r.lastError?.includes("not_found"))).toBe(true);
    expect((await listEvents(admin, { kind: `${kind}.ok`, state: undefined })).rows).toHaveLength(20);
  });

  test("cursor pages cover every event once, even with equal received times", async () => {
    const seen: EventRow[] = [];
    let cursor: string | undefined;
    do {
      const page = await listEvents(admin, { kind: `${kind}.*`, state: undefined }, { cursor, limit: 7 });
      seen.push(...page.rows);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen.map((r) => r.id)).size).toBe(25);
  });

  test("counts by state include these events", async () => {
    const counts = await countEventsByState(admin);
    expect(counts.failed).toBeGreaterThanOrEqual(5);
    expect(counts.processed).toBeGreaterThanOrEqual(20);
  });

  test("only admins may read the inbox", async () => {
    for (const role of ["buyer", "support", "finance", "approver", "viewer"]) {
      const someone = await makeStaff([role]);
      await expect(listEvents(someone, { kind: undefined, state: undefined }), role).rejects.toMatchObject({ code: "forbidden" });
      await expect(countEventsByState(someone), role).rejects.toMatchObject({ code: "forbidden" });
    }
  });
});
