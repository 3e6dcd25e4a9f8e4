import { describe, expect, test } from "vitest";
import { can, PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { assertCan } from "@/lib/auth/actor";

const actor = (roles: string[]) => ({ staffId: "s", email: "e", name: "n", roles });

describe("role → permission table", () => {
  test("a person with no roles may do nothing", () => {
    for (const permission of PERMISSIONS) expect(can([], permission)).toBe(false);
  });

  test("an unknown role grants nothing", () => {
    for (const permission of PERMISSIONS) expect(can(["superuser"], permission)).toBe(false);
  });

  test("only support may reveal codes", () => {
    expect(ROLES.filter((r) => can([r], "codes.reveal"))).toEqual(["support"]);
  });

  test("only buyers may place orders", () => {
    expect(ROLES.filter((r) => can([r], "orders.create"))).toEqual(["buyer"]);
  });

  test("requesting and approving withdrawals belong to different roles", () => {
    expect(ROLES.filter((r) => can([r], "withdrawals.request"))).toEqual(["finance"]);
    expect(ROLES.filter((r) => can([r], "withdrawals.approve"))).toEqual(["approver"]);
  });

  test("a viewer reads but changes nothing", () => {
    const writes = PERMISSIONS.filter((p) => !p.endsWith(".read"));
    for (const permission of writes) expect(can(["viewer"], permission), permission).toBe(false);
    expect(can(["viewer"], "orders.read")).toBe(true);
    expect(can(["viewer"], "audit.read")).toBe(true);
  });

  test("staff and settings are managed by admins only", () => {
    expect(ROLES.filter((r) => can([r], "staff.manage"))).toEqual(["admin"]);
    expect(ROLES.filter((r) => can([r], "settings.manage"))).toEqual(["admin"]);
  });

  test("only admins invite people and send password reset links", () => {
    expect(ROLES.filter((r) => can([r], "staff.invite"))).toEqual(["admin"]);
    expect(ROLES.filter((r) => can([r], "staff.reset-password"))).toEqual(["admin"]);
  });

  test("the notification outbox and the caught mail are for admins only", () => {
    expect(ROLES.filter((r) => can([r], "notifications.outbox"))).toEqual(["admin"]);
  });

  test("buyers, finance and admins watch the catalog; only admins watch it for the whole workspace", () => {
    expect(ROLES.filter((r) => can([r], "catalog.watch"))).toEqual(["admin", "buyer", "finance"]);
    expect(ROLES.filter((r) => can([r], "catalog.watch-workspace"))).toEqual(["admin"]);
  });

  test("several roles combine their permissions", () => {
    expect(can(["viewer", "buyer"], "orders.create")).toBe(true);
    expect(can(["viewer", "buyer"], "codes.reveal")).toBe(false);
  });

  test("assertCan throws a forbidden error when denied", () => {
    expect(() => assertCan(actor(["viewer"]), "staff.manage")).toThrow(expect.objectContaining({ code: "forbidden" }));
    expect(() => assertCan(actor(["admin"]), "staff.manage")).not.toThrow();
  });
});
