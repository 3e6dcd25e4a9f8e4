import { afterEach, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { placeOrder } from "@/lib/orders/place-order";
import { refreshOrder } from "@/lib/orders/refresh-order";
import { revealCodes } from "@/lib/reveal/reveal-codes";
import { revealHistory } from "@/lib/reveal/reveal-history";
import { updateSettings } from "@/lib/settings/update-settings";
import { makeStaff, uniqueIp } from "../support/db";
import { notificationsOf, received } from "../support/notifications";
import { control, eventually } from "../support/sandbox";
import { variantProduct } from "../support/catalog";

async function fulfilledOrder(): Promise<string> {
  const buyer = await makeStaff(["buyer"]);
  const product = await variantProduct();
  const { order } = await placeOrder(buyer, {
    idempotencyKey: randomUUID(),
    clientReference: `reveal-${randomUUID().slice(0, 8)}`,
    item: { productId: product.id, variantId: product.variants[0].id, quantity: 2, currency: product.currency },
  });
  await eventually(async () => (await refreshOrder(order.id)).status === "fulfilled");
  return order.id;
}

async function supportSession(roles = ["support"]) {
  const staff = await makeStaff(roles);
  const result = await signInWithPassword(
    { email: staff.email, password: staff.password },
    { ip: uniqueIp(), userAgent: "vitest" },
  );
  if (!result.ok) throw new Error("sign-in failed");
  return { actor: staff, session: { sessionId: result.sessionId, reauthAt: new Date() } };
}

const reveal = (orderId: string, extra: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  ticket: "SUP-1234",
  reason: "Customer says the code did not arrive",
  ...extra,
});

afterEach(async () => {
  await control("DELETE", "/faults");
  await control("PUT", "/fulfilment", { mode: "auto" });
});

describe("audited code reveal", () => {
  test("support reveals codes with a reason; the audit records who, why and revealCount, never a code", async () => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const codes = await revealCodes(actor, session, orderId, reveal(orderId, { password: actor.password }));
    expect(codes.artifacts.length).toBeGreaterThan(0);
    expect(codes.revealCount).toBe(1);

    const history = await revealHistory(actor, orderId);
    expect(history[0]).toMatchObject({
      actorEmail: actor.email,
      ticket: "SUP-1234",
      reason: "Customer says the code did not arrive",
      state: "succeeded",
      revealCount: 1,
    });
    expect(history[0]!.correlationId).toBeTruthy();

    // No revealed value is anywhere in the database.
    const tables = await db().$queryRaw<
      { name: string }[]
    >`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`;
    for (const { name } of tables) {
      const rows = await db().$queryRawUnsafe<{ t: string }[]>(`SELECT row_to_json(x)::text AS t FROM "${name}" x`);
      const text = rows.map((r) => r.t).join("\n");
      for (const artifact of codes.artifacts) expect(text.includes(artifact.value), `table ${name}`).toBe(false);
    }
  });

  test("a reveal retried after a dropped answer counts once upstream (same idempotency key)", async () => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const first = await revealCodes(actor, session, orderId, reveal(orderId));
    await control("PUT", "/faults", {
      dropResponseAfterCommitRate: 1,
      maxFaults: 1,
      pathPrefix: `/api/v1/orders/${orderId}/fulfillment`,
    });
    const retried = await revealCodes(actor, session, orderId, reveal(orderId));
    expect(retried.revealCount).toBe(first.revealCount + 1);
    expect(retried.artifacts.map((a) => a.value)).toEqual(first.artifacts.map((a) => a.value));
  });

  test("only support may reveal", async () => {
    const orderId = await fulfilledOrder();
    for (const role of ["admin", "buyer", "finance", "approver", "viewer"]) {
      const { actor, session } = await supportSession([role]);
      await expect(revealCodes(actor, session, orderId, reveal(orderId))).rejects.toMatchObject({ code: "forbidden" });
    }
  });

  test("an old session must confirm the password again; a wrong one is refused and audited", async () => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const stale = { ...session, reauthAt: new Date(Date.now() - 6 * 60_000) };
    await expect(revealCodes(actor, stale, orderId, reveal(orderId))).rejects.toMatchObject({ code: "step_up_required" });
    await expect(revealCodes(actor, stale, orderId, reveal(orderId, { password: "not my password" }))).rejects.toMatchObject({
      code: "step_up_failed",
    });
    expect(await db().auditEvent.count({ where: { action: "auth.step_up_failed", actorId: actor.staffId } })).toBe(1);
    const codes = await revealCodes(actor, stale, orderId, reveal(orderId, { password: actor.password }));
    expect(codes.artifacts.length).toBeGreaterThan(0);
  });

  test("a reason and a ticket are required", async () => {
    const { actor, session } = await supportSession();
    await expect(
      revealCodes(actor, session, "ord_x", { idempotencyKey: randomUUID(), ticket: "", reason: "" }),
    ).rejects.toMatchObject({ code: "invalid_request", fieldErrors: { ticket: expect.any(Array), reason: expect.any(Array) } });
  });

  test("an order that is not fulfilled gives the contract's 409", async () => {
    await control("PUT", "/fulfilment", { mode: "manual" });
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const { order } = await placeOrder(buyer, {
      idempotencyKey: randomUUID(),
      clientReference: "reveal-unfulfilled",
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    });
    const { actor, session } = await supportSession();
    await expect(revealCodes(actor, session, order.id, reveal(order.id))).rejects.toMatchObject({
      code: "order_not_fulfilled",
      status: 409,
    });
  });

  test("past the hourly quota a reveal is refused and admins are alerted through the audit log and a notification, once that hour", async () => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const admin = await makeStaff(["admin"]);
    await withQuota(2, async () => {
      await revealCodes(actor, session, orderId, reveal(orderId));
      await revealCodes(actor, session, orderId, reveal(orderId));
      await expect(revealCodes(actor, session, orderId, reveal(orderId))).rejects.toMatchObject({
        code: "reveal_quota_exceeded",
        status: 429,
      });
      expect(await db().auditEvent.count({ where: { action: "order.reveal_quota_exceeded", actorId: actor.staffId } })).toBe(1);
      await expect(revealCodes(actor, session, orderId, reveal(orderId))).rejects.toMatchObject({
        code: "reveal_quota_exceeded",
      });
      const key = `reveal.quota_alert:${actor.staffId}:${new Date().toISOString().slice(0, 13)}`;
      expect(await received(admin.staffId, key)).toBe(1);
      expect(await received(actor.staffId, key)).toBe(0);
      const alert = await notificationsOf(key);
      expect(alert.title).toBe(`${actor.name} reached the reveal quota: 2 reveals in the last hour (the limit is 2)`);
      expect(alert.link).toBe("/audit?action=order.reveal_quota_exceeded");
    });
  });

  test("a reveal the upstream refuses is recorded as failed and still counts toward the quota", async () => {
    await control("PUT", "/fulfilment", { mode: "manual" });
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const { order } = await placeOrder(buyer, {
      idempotencyKey: randomUUID(),
      clientReference: "reveal-refused",
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    });
    const { actor, session } = await supportSession();
    await withQuota(1, async () => {
      await expect(revealCodes(actor, session, order.id, reveal(order.id))).rejects.toMatchObject({
        code: "order_not_fulfilled",
      });
      await expect(revealCodes(actor, session, order.id, reveal(order.id))).rejects.toMatchObject({
        code: "reveal_quota_exceeded",
      });
    });
    const history = await revealHistory(actor, order.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      state: "failed",
      errorCode: "order_not_fulfilled",
      revealCount: null,
      ticket: "SUP-1234",
    });
    expect(await db().auditEvent.count({ where: { action: "order.reveal_failed", targetId: order.id } })).toBe(1);
  });

  test("a retry under the same idempotency key is one reveal: one record, counted once here and upstream", async () => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const request = reveal(orderId);
    const first = await revealCodes(actor, session, orderId, request);
    const again = await revealCodes(actor, session, orderId, request);
    expect(again.revealCount).toBe(first.revealCount);
    expect(await db().codeReveal.count({ where: { orderId } })).toBe(1);
    expect(await upstreamReveals(orderId)).toBe(1);
    const other = await supportSession();
    await expect(revealCodes(other.actor, other.session, orderId, request)).rejects.toMatchObject({ code: "conflict" });
    expect(await upstreamReveals(orderId)).toBe(1);
  });

  test("with a quota of N, N-2 reveals then 12 at once: exactly N succeed, and every upstream reveal has its record", async () => {
    const quota = 8;
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    await withQuota(quota, async () => {
      for (let i = 0; i < quota - 2; i++) await revealCodes(actor, session, orderId, reveal(orderId));
      const parallel = await Promise.allSettled(
        Array.from({ length: 12 }, () => revealCodes(actor, session, orderId, reveal(orderId))),
      );
      const refused = parallel.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(parallel.length - refused.length).toBe(2);
      for (const r of refused) expect(r.reason).toMatchObject({ code: "reveal_quota_exceeded", status: 429 });
    });
    const upstream = await upstreamReveals(orderId);
    expect(upstream).toBe(quota);
    expect(await db().codeReveal.count({ where: { orderId } })).toBe(upstream);
    expect(await db().codeReveal.count({ where: { orderId, state: "succeeded" } })).toBe(upstream);
    expect(await db().auditEvent.count({ where: { action: "order.reveal_started", targetId: orderId } })).toBe(upstream);
    expect(await db().auditEvent.count({ where: { action: "order.reveal", targetId: orderId } })).toBe(upstream);
    expect(await db().auditEvent.count({ where: { action: "order.reveal_quota_exceeded", actorId: actor.staffId } })).toBe(10);
  });

  // The database itself refuses the record (a trigger, as a full disk or a broken constraint would):
  // nothing may reach the upstream.
  test.each([
    ["record", "CodeReveal", `NEW."orderId" = $ORDER`],
    ["audit entry", "AuditEvent", `NEW."action" = 'order.reveal_started' AND NEW."targetId" = $ORDER`],
  ])("a reveal whose %s cannot be written never reaches the upstream", async (_what, table, condition) => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    const name = `refuse_${randomUUID().replaceAll("-", "")}`;
    await db().$executeRawUnsafe(
      `CREATE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
    );
    await db().$executeRawUnsafe(
      `CREATE TRIGGER "${name}" BEFORE INSERT ON "${table}" FOR EACH ROW WHEN (${condition.replace("$ORDER", `'${orderId}'`)}) EXECUTE FUNCTION "${name}"()`,
    );
    try {
      await expect(revealCodes(actor, session, orderId, reveal(orderId))).rejects.toMatchObject({
        code: "reveal_not_recorded",
        status: 503,
      });
      expect(await upstreamReveals(orderId)).toBe(0);
      expect(await db().codeReveal.count({ where: { orderId } })).toBe(0);
      expect(await db().auditEvent.count({ where: { targetId: orderId, action: { startsWith: "order.reveal" } } })).toBe(0);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER "${name}" ON "${table}"`);
      await db().$executeRawUnsafe(`DROP FUNCTION "${name}"()`);
    }
    // The same reveal, once the record can be written, goes through: the record was the only thing missing.
    await revealCodes(actor, session, orderId, reveal(orderId));
    expect(await upstreamReveals(orderId)).toBe(1);
  });

  // Text PostgreSQL cannot store, handed straight to the domain function (past any route):
  // refused as input or by the database, but never revealed.
  test.each([
    ["a NUL in the ticket", { ticket: "SUP-\u0000-1" }],
    ["a NUL in the reason", { reason: "Customer\u0000 says it did not arrive" }],
    ["a lone surrogate in the reason", { reason: "Customer says \ud800 it did not arrive" }],
  ])("%s never reaches the upstream", async (_what, extra) => {
    const orderId = await fulfilledOrder();
    const { actor, session } = await supportSession();
    await expect(revealCodes(actor, session, orderId, reveal(orderId, extra))).rejects.toMatchObject({
      code: expect.stringMatching(/^(invalid_request|reveal_not_recorded)$/),
    });
    expect(await upstreamReveals(orderId)).toBe(0);
    expect(await db().codeReveal.count({ where: { orderId } })).toBe(0);
  });
});

async function withQuota(quota: number, run: () => Promise<void>): Promise<void> {
  const admin = await makeStaff(["admin"]);
  await updateSettings(admin, { revealQuotaPerHour: quota });
  try {
    await run();
  } finally {
    await updateSettings(admin, { revealQuotaPerHour: 20 });
  }
}

/** How many reveals the upstream (the sandbox) served for an order, read from its control plane. */
async function upstreamReveals(orderId: string): Promise<number> {
  return ((await control("GET", `/orders/${orderId}/reveals`)) as { revealCount: number }).revealCount;
}
