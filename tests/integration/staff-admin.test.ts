import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { updateStaff } from "@/lib/staff/update-staff";
import { inviteStaff } from "@/lib/staff/access-links/invite-staff";
import { issuePasswordResetLink } from "@/lib/staff/access-links/issue-password-reset-link";
import { makeStaff } from "../support/db";

const valid = () => ({
  email: `new-${Math.random().toString(36).slice(2)}@test.local`,
  name: "New Person",
  roles: ["buyer"],
});

describe("staff administration", () => {
  test("an admin invites a person who can hold several roles, and it is audited", async () => {
    const admin = await makeStaff(["admin"]);
    const { invitation } = await inviteStaff(admin, { ...valid(), roles: ["buyer", "support", "buyer"] });
    expect(invitation.roles).toEqual(["buyer", "support"]);
    expect(invitation).not.toHaveProperty("tokenHash");
    const audit = await db().auditEvent.findFirst({ where: { action: "staff.invite", targetId: invitation.id } });
    expect(audit).toMatchObject({ actorId: admin.staffId, ip: admin.ip });
  });

  test.each([
    ["empty input", {}, ["email", "name", "roles"]],
    ["an unknown role", { ...valid(), roles: ["root"] }, ["roles.0"]],
    ["no roles", { ...valid(), roles: [] }, ["roles"]],
    ["wrong types", { email: 5, name: true, roles: "admin" }, ["email", "name", "roles"]],
    ["a huge name", { ...valid(), name: "x".repeat(5000) }, ["name"]],
    ["a typed password (an admin no longer sets one)", { ...valid(), password: "twelve chars min" }, ["_"]],
    ["a bad email", { ...valid(), email: "not-an-email" }, ["email"]],
  ])("%s gets field errors and changes nothing", async (_label, input, fields) => {
    const admin = await makeStaff(["admin"]);
    const before = await db().accessLink.count();
    const error = await inviteStaff(admin, input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_request" });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors).sort()).toEqual([...fields].sort());
    expect(await db().accessLink.count()).toBe(before);
  });

  test("people without the admin role cannot manage staff", async () => {
    for (const role of ["buyer", "support", "finance", "approver", "viewer"]) {
      const actor = await makeStaff([role]);
      await expect(inviteStaff(actor, valid())).rejects.toMatchObject({ code: "forbidden" });
      await expect(updateStaff(actor, actor.staffId, { roles: ["admin"] })).rejects.toMatchObject({ code: "forbidden" });
      await expect(issuePasswordResetLink(actor, actor.staffId)).rejects.toMatchObject({ code: "forbidden" });
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
