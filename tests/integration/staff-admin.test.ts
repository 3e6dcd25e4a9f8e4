import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { createStaff } from "@/lib/staff/create-staff";
import { updateStaff } from "@/lib/staff/update-staff";
import { resetPassword } from "@/lib/staff/reset-password";
import { makeStaff } from "../support/db";

const valid = () => ({
  email: `new-${Math.random().toString(36).slice(2)}@test.local`,
  name: "New Person",
  roles: ["buyer"],
  password: "twelve chars min",
});

describe("staff administration", () => {
  test("an admin creates a person who can hold several roles, and it is audited", async () => {
    const admin = await makeStaff(["admin"]);
    const created = await createStaff(admin, { ...valid(), roles: ["buyer", "support", "buyer"] });
    expect(created.roles).toEqual(["buyer", "support"]);
    expect(created).not.toHaveProperty("passwordHash");
    const audit = await db().auditEvent.findFirst({ where: { action: "staff.create", targetId: created.id } });
    expect(audit).toMatchObject({ actorId: admin.staffId, ip: admin.ip });
    expect(JSON.stringify(audit?.details)).not.toContain("twelve chars min");
  });

  test.each([
    ["empty input", {}, ["email", "name", "roles", "password"]],
    ["an unknown role", { ...valid(), roles: ["root"] }, ["roles.0"]],
    ["no roles", { ...valid(), roles: [] }, ["roles"]],
    ["wrong types", { email: 5, name: true, roles: "admin", password: 123 }, ["email", "name", "roles", "password"]],
    ["a huge name", { ...valid(), name: "x".repeat(5000) }, ["name"]],
    ["a short password", { ...valid(), password: "short" }, ["password"]],
    ["a bad email", { ...valid(), email: "not-an-email" }, ["email"]],
  ])("%s gets field errors and changes nothing", async (_label, input, fields) => {
    const admin = await makeStaff(["admin"]);
    const before = await db().staff.count();
    const error = await createStaff(admin, input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_request" });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors).sort()).toEqual([...fields].sort());
    expect(await db().staff.count()).toBe(before);
  });

  test("a taken email is a field error", async () => {
    const admin = await makeStaff(["admin"]);
    const input = valid();
    await createStaff(admin, input);
    await expect(createStaff(admin, { ...input, email: input.email.toUpperCase() })).rejects.toMatchObject({
      code: "email_taken",
      fieldErrors: { email: expect.any(Array) },
    });
  });

  test("people without the admin role cannot manage staff", async () => {
    for (const role of ["buyer", "support", "finance", "approver", "viewer"]) {
      const actor = await makeStaff([role]);
      await expect(createStaff(actor, valid())).rejects.toMatchObject({ code: "forbidden" });
      await expect(updateStaff(actor, actor.staffId, { roles: ["admin"] })).rejects.toMatchObject({ code: "forbidden" });
      await expect(resetPassword(actor, actor.staffId, { password: "new password 1234" })).rejects.toMatchObject({
        code: "forbidden",
      });
    }
  });

  test("the last active admin can neither be deactivated nor lose the role", async () => {
    // Leave exactly one active admin in the database for this test.
    await db().staff.updateMany({ where: { roles: { has: "admin" } }, data: { active: false } });
    const admin = await makeStaff(["admin"]);
    await expect(updateStaff(admin, admin.staffId, { active: false })).rejects.toMatchObject({ code: "last_admin" });
    await expect(updateStaff(admin, admin.staffId, { roles: ["viewer"] })).rejects.toMatchObject({ code: "last_admin" });
    expect((await db().staff.findUnique({ where: { id: admin.staffId } }))?.active).toBe(true);

    const second = await makeStaff(["admin"]);
    await updateStaff(second, admin.staffId, { active: false });
    expect((await db().staff.findUnique({ where: { id: admin.staffId } }))?.active).toBe(false);
  });

  test("two admins deactivating each other at once leave one active admin", async () => {
    await db().staff.updateMany({ where: { roles: { has: "admin" } }, data: { active: false } });
    const a = await makeStaff(["admin"]);
    const b = await makeStaff(["admin"]);
    const results = await Promise.allSettled([
      updateStaff(a, b.staffId, { active: false }),
      updateStaff(b, a.staffId, { active: false }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db().staff.count({ where: { active: true, roles: { has: "admin" } } })).toBe(1);
  });

  test("updating an unknown person is not found; a malformed id is a field error", async () => {
    const admin = await makeStaff(["admin"]);
    await expect(updateStaff(admin, "00000000-0000-4000-8000-000000000000", { name: "X" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(updateStaff(admin, "../../etc", { name: "X" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(updateStaff(admin, admin.staffId, { roles: ["wizard"] })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(updateStaff(admin, admin.staffId, { passwordHash: "x" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});
