import "server-only";
import { db, Prisma, type Tx } from "@/lib/db/client";
import type { Order as UpstreamOrder } from "@/lib/upstream/client";
import { toMinor } from "@/lib/money";
import { escapeUnstorable, storableJson } from "@/lib/db/unstorable-text";
import { noticeOrderSettled } from "./failed-order-notice";
import { OPEN_STATUSES, takeOrderStatus, type OrderStatus } from "./states";

/**
 * Writes an upstream order into the local mirror. A newer read (by the upstream's
 * updatedAtUtc) or a forward state move wins; an older or backward one is ignored, so
 * reads and webhooks may arrive in any order. The row is locked while deciding, so two
 * concurrent writers (a webhook racing reconciliation, two workers) cannot land the older
 * answer last. A move to a final status notifies in the same transaction (failed-order-notice.ts).
 */
export type MirrorMeta = { placedById?: string | null; idempotencyKey?: string | null; eventAt?: Date | null };

export async function mirrorOrder(
  order: UpstreamOrder,
  meta: MirrorMeta = {},
  tx?: Tx,
): Promise<{ status: OrderStatus; changed: boolean }> {
  if (!tx) return db().$transaction((t) => mirrorOrder(order, meta, t));
  const status = order.status as OrderStatus;
  const data = mirroredFields(order);
  const lines = (order.lines ? storableJson(order.lines) : null) as Prisma.InputJsonValue | null;

  // Insert-if-absent without aborting the transaction when another writer was first.
  const inserted = await tx.order.createMany({
    data: [
      {
        id: order.id,
        ...data,
        lines: lines ?? [],
        lastEventAt: meta.eventAt ?? null,
        placedById: meta.placedById ?? null,
        idempotencyKey: meta.idempotencyKey ?? null,
      },
    ],
    skipDuplicates: true,
  });
  if (inserted.count === 1) {
    await noticeOrderSettled(
      tx,
      { id: order.id, ...data, placedById: meta.placedById ?? null, idempotencyKey: meta.idempotencyKey ?? null },
      status,
    );
    return { status, changed: true };
  }
  await tx.$executeRaw`SELECT 1 FROM "Order" WHERE "id" = ${order.id} FOR UPDATE`;
  const existing = await tx.order.findUniqueOrThrow({ where: { id: order.id } });

  const current = existing.status as OrderStatus;
  const taken = takeOrderStatus(current, status, data.upstreamUpdatedAt > existing.upstreamUpdatedAt);
  const patch: Prisma.OrderUpdateInput = {
    // Fill in what an earlier, thinner read lacked, whatever its age.
    ...(meta.placedById && !existing.placedById ? { placedById: meta.placedById } : {}),
    ...(meta.idempotencyKey && !existing.idempotencyKey ? { idempotencyKey: meta.idempotencyKey } : {}),
    ...(lines && Array.isArray(existing.lines) && existing.lines.length === 0 ? { lines } : {}),
    ...(meta.eventAt && (!existing.lastEventAt || meta.eventAt > existing.lastEventAt) ? { lastEventAt: meta.eventAt } : {}),
  };
  if (taken) Object.assign(patch, data, lines ? { lines } : {}, { checkAttempts: 0 });
  if (Object.keys(patch).length === 0) return { status: current, changed: false };
  await tx.order.update({ where: { id: order.id }, data: patch });
  const changed = taken && status !== current;
  // Who must hear of it (a failed order's buyer, a bulk file's one message) hears in this transaction.
  if (changed)
    await noticeOrderSettled(
      tx,
      {
        id: order.id,
        ...data,
        placedById: existing.placedById ?? meta.placedById ?? null,
        idempotencyKey: existing.idempotencyKey ?? meta.idempotencyKey ?? null,
      },
      status,
    );
  return { status: taken ? status : current, changed };
}

function mirroredFields(order: UpstreamOrder) {
  const status = order.status as OrderStatus;
  return {
    // Upstream text PostgreSQL cannot hold (NUL, broken Unicode) is kept escaped, not refused.
    clientReference: escapeUnstorable(order.clientReference),
    status,
    totalMinor: toMinor(order.total, order.currency),
    currency: order.currency,
    upstreamCreatedAt: new Date(order.createdAtUtc),
    upstreamUpdatedAt: new Date(order.updatedAtUtc),
    syncedAt: new Date(),
    nextCheckAt: OPEN_STATUSES.includes(status) ? new Date(Date.now() + 5_000) : null,
  };
}

/**
 * Mirrors a page of orders read from a list (history import, safety-net sync): the ones the
 * mirror lacks in one INSERT (one short statement, so people's queries never queue behind a
 * long transaction), then the ones it already had through mirrorOrder, each alone.
 * Returns how many were new.
 */
export async function mirrorOrders(orders: UpstreamOrder[]): Promise<{ inserted: number; changed: number }> {
  if (orders.length === 0) return { inserted: 0, changed: 0 };
  const created = await db().order.createManyAndReturn({
    data: orders.map((order) => ({
      id: order.id,
      ...mirroredFields(order),
      lines: storableJson(order.lines ?? []) as Prisma.InputJsonValue,
    })),
    skipDuplicates: true,
    select: { id: true },
  });
  const fresh = new Set(created.map((row) => row.id));
  const known = orders.filter((order) => !fresh.has(order.id));
  // A re-read that says nothing new (same update time, same status) costs no transaction.
  const held = new Map(
    (
      await db().order.findMany({
        where: { id: { in: known.map((o) => o.id) } },
        select: { id: true, status: true, upstreamUpdatedAt: true },
      })
    ).map((row) => [row.id, row]),
  );
  let changed = 0;
  for (const order of known) {
    const row = held.get(order.id);
    if (row && row.status === order.status && row.upstreamUpdatedAt.getTime() >= Date.parse(order.updatedAtUtc)) continue;
    if ((await mirrorOrder(order)).changed) changed += 1;
  }
  return { inserted: fresh.size, changed };
}
