import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import { listAudit } from "@/lib/audit/list-audit";
import { exportAuditCsv } from "@/lib/audit/export-audit";
import { makeStaff } from "../support/db";

describe("audit log", () => {
  test("if the audit row cannot be written, the change does not happen", async () => {
    const before = await db().setting.count();
    // Built beside the call, as a spread would be: the type's excess-property check does not see it.
    const details = { email: "someone@test.local", roles: ["viewer"], password: "hunter2" };
    await expect(
      db().$transaction(async (tx) => {
        await tx.setting.create({ data: { key: `k-${Date.now()}`, value: 1 } });
        await recordAudit(tx, { action: "staff.create", targetId: "s1", details });
      }),
    ).rejects.toThrow(/must not carry secrets \(field "password"\)/);
    expect(await db().setting.count()).toBe(before);
  });

  test("in tests, details that do not match their action's schema fail the write, and the change with it", async () => {
    const key = `k-${Date.now()}`;
    const details = { email: "someone@test.local", roles: ["owner"] };
    await expect(
      db().$transaction(async (tx) => {
        await tx.setting.create({ data: { key, value: 1 } });
        await recordAudit(tx, { action: "staff.create", targetId: "s1", details });
      }),
    ).rejects.toThrow(/"staff.create" do not match its schema: roles.0: /);
    expect(await db().setting.findUnique({ where: { key } })).toBeNull();
  });

  test("an action outside the table, or a retired one, is refused even past the type", async () => {
    for (const action of ["test.unknown", "order.reveal_refused"]) {
      const entry = { action, targetId: "o1" } as unknown as AuditEntry; // what a JavaScript caller could send
      await expect(db().$transaction((tx) => recordAudit(tx, entry))).rejects.toThrow(/not an audit action that is recorded/);
    }
  });

  test("the row's target kind is the action's, from the table", async () => {
    const targetId = `s-${Date.now()}`;
    await db().$transaction((tx) =>
      recordAudit(tx, { action: "staff.invitation_revoked", targetId, details: { email: "someone@test.local" } }),
    );
    const row = await db().auditEvent.findFirstOrThrow({ where: { targetId } });
    expect(row).toMatchObject({
      action: "staff.invitation_revoked",
      targetType: "access_link",
      details: { email: "someone@test.local" },
    });
  });

  test("rows are append-only: the database refuses updates and deletes", async () => {
    const row = await db().auditEvent.create({ data: { action: "test.append_only" } });
    await expect(db().auditEvent.update({ where: { id: row.id }, data: { action: "tampered" } })).rejects.toThrow();
    await expect(db().auditEvent.delete({ where: { id: row.id } })).rejects.toThrow();
    expect((await db().auditEvent.findUnique({ where: { id: row.id } }))?.action).toBe("test.append_only");
  });

  test("filters by actor, action and date, newest first, with cursor pagination", async () => {
    const viewer = await makeStaff(["viewer"]);
    const actorEmail = `pager-${Date.now()}@test.local`;
    for (let i = 0; i < 5; i++) await db().auditEvent.create({ data: { action: "test.page", actorEmail, details: { i } } });
    const first = await listAudit(viewer, { actor: actorEmail, action: "test.page" }, { limit: 2 });
    expect(first.rows.map((r) => (r.details as { i: number }).i)).toEqual([4, 3]);
    const second = await listAudit(viewer, { actor: actorEmail, action: "test.page" }, { limit: 2, cursor: first.nextCursor! });
    expect(second.rows.map((r) => (r.details as { i: number }).i)).toEqual([2, 1]);
    const last = await listAudit(viewer, { actor: actorEmail, action: "test.page" }, { limit: 2, cursor: second.nextCursor! });
    expect(last.nextCursor).toBeNull();
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAudit(viewer, { actor: actorEmail, action: undefined, from: today, to: today })).rows).toHaveLength(5);
    expect((await listAudit(viewer, { actor: actorEmail, action: undefined, to: "2020-01-01" })).rows).toHaveLength(0);
  });

  test("only admins and viewers read it", async () => {
    const buyer = await makeStaff(["buyer"]);
    await expect(listAudit(buyer, { actor: undefined, action: undefined })).rejects.toMatchObject({ code: "forbidden" });
  });

  test("the CSV export holds the filtered rows with a header", async () => {
    const admin = await makeStaff(["admin"]);
    const actorEmail = `csv-${Date.now()}@test.local`;
    await db().auditEvent.create({ data: { action: "test.csv", actorEmail, targetId: "=cmd()" } });
    const text = await new Response(await exportAuditCsv(admin, { actor: actorEmail, action: undefined })).text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("id,at,actor,action,targetType,targetId,ip,userAgent,correlationId,details");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("'=cmd()");
  });
});
