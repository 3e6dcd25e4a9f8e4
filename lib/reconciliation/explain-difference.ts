import "server-only";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/money";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { orderEffect, type Window } from "./day-movements";

/** A movement at the upstream the app's records miss or see otherwise; `amountMinor` is its share of the difference. */
export type Explanation = {
  kind: "unknown_order" | "order_state" | "unheard_deposit" | "unknown_withdrawal";
  id: string;
  amountMinor: string;
  at: string;
  note: string;
};
export type Explained = { items: Explanation[]; complete: boolean };

/** Pages of 100 read per kind at most: a worker's job, at background priority, within the budget. */
const MAX_PAGES = 10;
/** Orders created this long before the window can still be captured inside it. */
const ORDER_LEAD_MS = 60 * 60_000;
const call = { priority: "background", by: spentByJob("reconciliation") } as const;

/**
 * The movements behind a difference that the app can tell by asking the upstream (the
 * contract has no ledger): the orders created over the window (one it never mirrored, or
 * whose refund or capture it did not hear of), the deposits (one no recorded credit
 * matches), and the paid withdrawals (one this app never sent). `complete` is false when
 * a list was longer than MAX_PAGES.
 */
export async function explainDifference(w: Window): Promise<Explained> {
  const [orders, deposits, withdrawals] = await Promise.all([explainOrders(w), explainDeposits(w), explainWithdrawals(w)]);
  return {
    items: [...orders.items, ...deposits.items, ...withdrawals.items],
    complete: orders.complete && deposits.complete && withdrawals.complete,
  };
}

async function explainOrders(w: Window): Promise<Explained> {
  const items: Explanation[] = [];
  const { found, complete } = await readPages((cursor) =>
    upstream().listOrders(
      {
        createdFromUtc: new Date(w.from.getTime() - ORDER_LEAD_MS).toISOString(),
        createdToUtc: w.to.toISOString(),
        limit: 100,
        cursor,
      },
      call,
    ),
  );
  const upstreamOrders = found.filter((o) => o.currency === w.currency);
  const mirrored = new Map(
    (await db().order.findMany({ where: { id: { in: upstreamOrders.map((o) => o.id) } } })).map((o) => [o.id, o]),
  );
  for (const o of upstreamOrders) {
    const totalMinor = toMinor(o.total, o.currency);
    const theirs = orderEffect(
      { status: o.status, totalMinor, createdAt: new Date(o.createdAtUtc), updatedAt: new Date(o.updatedAtUtc) },
      w.from,
      w.to,
    );
    const row = mirrored.get(o.id);
    const ours = row
      ? orderEffect(
          { status: row.status, totalMinor: row.totalMinor, createdAt: row.upstreamCreatedAt, updatedAt: row.upstreamUpdatedAt },
          w.from,
          w.to,
        )
      : 0n;
    if (theirs === ours) continue;
    items.push({
      kind: row ? "order_state" : "unknown_order",
      id: o.id,
      amountMinor: (theirs - ours).toString(),
      at: o.updatedAtUtc,
      note: row
        ? `The Issuing Service says ${o.status}; this app's record says ${row.status}.`
        : `An order (${o.status}, reference ${o.clientReference}) placed outside this app that it has not mirrored.`,
    });
  }
  return { items, complete };
}

async function explainDeposits(w: Window): Promise<Explained> {
  const { found, complete } = await readPages(
    (cursor) => upstream().listDeposits({ currency: w.currency, limit: 100, cursor }, call),
    (d) => Date.parse(d.occurredAtUtc) < w.from.getTime(),
  );
  const inWindow = found.filter((d) => {
    const at = Date.parse(d.creditedAtUtc ?? d.occurredAtUtc);
    return d.currency === w.currency && at >= w.from.getTime() && at < w.to.getTime();
  });
  const credits = await db().walletCredit.findMany({
    where: { currency: w.currency, occurredAt: { gte: w.from, lt: w.to } },
    select: { amountMinor: true },
  });
  // Each recorded credit accounts for one deposit of its amount; what is left was never heard of.
  const heard = credits.map((c) => c.amountMinor);
  const items: Explanation[] = [];
  for (const d of inWindow) {
    const amountMinor = toMinor(d.amount, d.currency);
    const index = heard.indexOf(amountMinor);
    if (index >= 0) {
      heard.splice(index, 1);
      continue;
    }
    items.push({
      kind: "unheard_deposit",
      id: d.id,
      amountMinor: amountMinor.toString(),
      at: d.creditedAtUtc ?? d.occurredAtUtc,
      note: `A ${d.rail ?? "deposit"} credit whose wallet.credited webhook this app has not recorded.`,
    });
  }
  return { items, complete };
}

async function explainWithdrawals(w: Window): Promise<Explained> {
  const { found, complete } = await readPages(
    (cursor) => upstream().listWithdrawals({ status: "paid", limit: 100, cursor }, call),
    (x) => Date.parse(x.requestedAtUtc) < w.from.getTime() - 7 * 86_400_000,
  );
  const paid = found.filter((x) => {
    const at = x.paidAtUtc ? Date.parse(x.paidAtUtc) : NaN;
    return x.currency === w.currency && at >= w.from.getTime() && at < w.to.getTime();
  });
  const known = new Set(
    (
      await db().withdrawalRequest.findMany({
        where: { upstreamId: { in: paid.map((x) => x.id) } },
        select: { upstreamId: true },
      })
    ).map((r) => r.upstreamId),
  );
  const items = paid
    .filter((x) => !known.has(x.id))
    .map((x): Explanation => ({
      kind: "unknown_withdrawal",
      id: x.id,
      amountMinor: (-toMinor(x.amount, x.currency)).toString(),
      at: x.paidAtUtc!,
      note: "A withdrawal paid out that was not requested through this app.",
    }));
  return { items, complete };
}

/** Newest-first cursor pages until `olderThanWanted` says an item is past the window, or MAX_PAGES. */
async function readPages<T>(
  page: (cursor: string | undefined) => Promise<{ data: { items: T[]; hasMore: boolean; nextCursor: string | null } }>,
  olderThanWanted: (item: T) => boolean = () => false,
): Promise<{ found: T[]; complete: boolean }> {
  const found: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const { data } = await page(cursor);
    found.push(...data.items);
    const last = data.items[data.items.length - 1];
    if (!data.hasMore || !data.nextCursor || (last && olderThanWanted(last))) return { found, complete: true };
    cursor = data.nextCursor;
  }
  return { found, complete: false };
}
