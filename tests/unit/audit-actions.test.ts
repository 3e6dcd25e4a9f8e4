import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTION_KEYS,
  AUDIT_ACTIONS,
  auditActionGroups,
  auditActionLabel,
  auditDetailsProblem,
} from "@/lib/audit/actions";
import { auditDetails, type AuditDetail } from "@/lib/audit/read-details";
import { AUDIT_TARGETS, auditTargetView, isAuditTargetKind } from "@/lib/audit/targets";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((f) => f.isFile() && /\.tsx?$/.test(f.name) && !f.parentPath.includes(`${path.sep}generated`))
    .map((f) => path.join(f.parentPath, f.name));
}

/**
 * The actions the code names: `action: "…"` (a call of recordAudit, a query of the log, an
 * argument that becomes one), constants named `…_ACTION`, and links to `/audit?action=…`.
 * Templates (`orders.import_${action}`) are kept as their fixed start.
 */
function actionsNamedInCode(): { literals: Map<string, string>; templates: Map<string, string> } {
  const literals = new Map<string, string>();
  const templates = new Map<string, string>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("app"), ...sourceFiles("components")]) {
    if (file.endsWith(path.join("lib", "audit", "actions.ts"))) continue;
    const where = path.relative(ROOT, file);
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const rest = /\baction:\s*(.*)$/.exec(line)?.[1] ?? /_ACTION\s*=\s*(.*)$/.exec(line)?.[1];
      for (const [, action] of rest?.matchAll(/"([a-z_]+\.[a-z_]+)"/g) ?? []) literals.set(action!, where);
      for (const [, start] of rest?.matchAll(/`([a-z_]+\.[a-z_]*)\$\{/g) ?? []) templates.set(start!, where);
      for (const [, action] of line.matchAll(/\/audit\?action=([a-z_]+\.[a-z_]+)/g)) literals.set(action!, where);
    }
  }
  return { literals, templates };
}

describe("the audit action table", () => {
  test("every action has a label, a known target kind (or none) and a details schema", () => {
    expect(AUDIT_ACTION_KEYS.length).toBeGreaterThan(40);
    for (const action of AUDIT_ACTION_KEYS) {
      const spec = AUDIT_ACTIONS[action];
      expect(spec.label.trim(), action).not.toBe("");
      expect(spec.label, action).not.toBe(action);
      expect(spec.target === null || isAuditTargetKind(spec.target), action).toBe(true);
      expect(typeof spec.details.safeParse, action).toBe("function");
    }
  });

  test("no two actions share a label, so the Action filter tells them apart", () => {
    const labels = AUDIT_ACTION_KEYS.map((a) => AUDIT_ACTIONS[a].label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  test("every action recorded or looked up anywhere in the code is in the table", () => {
    const { literals, templates } = actionsNamedInCode();
    // The spend actions of issue 38 and 39, found by the scan, so the scan is known to see them.
    for (const spend of [
      "request",
      "approve",
      "reject",
      "self_approval_refused",
      "expire",
      "cancel",
      "placed",
      "price_changed",
      "failed",
      "limits",
    ])
      expect(literals.has(`spend.${spend}`), `spend.${spend}`).toBe(true);
    for (const [action, where] of literals) expect(Object.hasOwn(AUDIT_ACTIONS, action), `${action} (${where})`).toBe(true);
    for (const [start, where] of templates)
      expect(
        AUDIT_ACTION_KEYS.some((a) => a.startsWith(start)),
        `${start}… (${where})`,
      ).toBe(true);
  });

  test("every action still in the table is recorded somewhere; one that no longer is, is marked retired", () => {
    const { literals, templates } = actionsNamedInCode();
    const named = (action: string) => literals.has(action) || [...templates.keys()].some((start) => action.startsWith(start));
    for (const action of AUDIT_ACTION_KEYS)
      expect(named(action) || "retired" in AUDIT_ACTIONS[action], `${action} is in the table but nothing records it`).toBe(true);
  });

  test("the filter offers every action, including all spend actions, in groups that each have a name", () => {
    const groups = auditActionGroups();
    expect(groups.flatMap((g) => g.actions.map((a) => a.value)).sort()).toEqual([...AUDIT_ACTION_KEYS].sort());
    for (const group of groups) expect(group.label).toBe(AUDIT_ACTION_GROUPS[group.prefix as keyof typeof AUDIT_ACTION_GROUPS]);
    const spend = groups.find((g) => g.prefix === "spend")!;
    expect(spend.actions.map((a) => a.label)).toContain("Asked for a spend approval");
    expect(spend.actions).toHaveLength(10);
  });

  test("a stored action reads as its label; one the table does not know reads as stored", () => {
    expect(auditActionLabel("spend.price_changed")).toBe("Price rose after approval: back to the approvers");
    expect(auditActionLabel("test.something_old")).toBe("test.something_old");
  });
});

describe("details against their action's schema", () => {
  test("what the call sites record fits, and a missing or extra field does not", () => {
    const order = { kind: "order", total: "12.50", currency: "USD", why: "Above 10.00.", reason: "Restock" };
    expect(auditDetailsProblem("spend.request", order)).toBeNull();
    expect(auditDetailsProblem("spend.request", { ...order, clientReference: "ref-1" })).toBeNull();
    expect(auditDetailsProblem("spend.request", { ...order, total: 12.5 })).toMatch(/^total: /);
    expect(auditDetailsProblem("spend.request", { ...order, extra: 1 })).toMatch(/extra/);
    expect(auditDetailsProblem("withdrawal.expire", undefined)).toBeNull();
    expect(auditDetailsProblem("withdrawal.expire", { why: "late" })).not.toBeNull();
    expect(auditDetailsProblem("staff.update_roles", { email: "a@b.c", from: ["buyer"], to: ["root"] })).toMatch(/^to\.0: /);
  });

  test("a spend request's stored totals (the row's JSON) must be minor units by currency", () => {
    const base = { kind: "order", comment: null, requestedById: "s1", round: 1 };
    expect(auditDetailsProblem("spend.approve", { ...base, totals: { USD: "1250" } })).toBeNull();
    expect(auditDetailsProblem("spend.approve", { ...base, totals: { USD: "12.50" } })).toMatch(/^totals\.USD: /);
    expect(auditDetailsProblem("spend.approve", { ...base, kind: "other", totals: {} })).toMatch(/^kind: /);
  });
});

describe("the audit page's reading of a row", () => {
  /** The details as one line, ids marked: "kind: bulk · order: [ord_1]". */
  const line = (details: AuditDetail[]) =>
    details.map((d) => `${d.label ? `${d.label}: ` : ""}${d.id ? `[${d.text}]` : d.text}`).join(" · ");

  test("details that fit read in words, amounts in minor units as amounts", () => {
    expect(line(auditDetails("spend.expire", { kind: "bulk", totals: { USD: "1250", JPY: "300" } }))).toBe(
      "kind: bulk · totals: 12.50 USD, 300 JPY",
    );
    expect(line(auditDetails("staff.create", { email: "a@b.c", roles: ["buyer", "support"] }))).toBe(
      "email: a@b.c · roles: buyer, support",
    );
    expect(line(auditDetails("orders.import_restart", { from: "2026-01-01", pagesRead: 3 }))).toMatch(/pages read: 3/);
    expect(auditDetails("auth.sign_in", null)).toEqual([]);
  });

  test("a detail with nothing in it is left out, never shown as null", () => {
    const decided = { kind: "order", totals: { USD: "1250" }, comment: null, requestedById: "s1", round: 1 };
    expect(line(auditDetails("spend.approve", decided, new Map([["s1", "Ann Buyer"]])))).toBe(
      "kind: order · totals: 12.50 USD · requested by: Ann Buyer · round: 1",
    );
    expect(line(auditDetails("spend.approve", { ...decided, comment: "" }))).not.toMatch(/comment/);
  });

  test("ids: a staff id reads as the person's name, an id people quote is marked to be shortened, an internal one is left out", () => {
    expect(line(auditDetails("spend.placed", { orderId: "ord_1", total: "12.50", currency: "USD" }))).toBe(
      "order: [ord_1] · total: 12.50 · currency: USD",
    );
    // A requester whose name is not found keeps the id, marked.
    expect(
      line(auditDetails("spend.reject", { kind: "order", totals: {}, comment: "no", requestedById: "s9", round: 1 })),
    ).toMatch(/requested by: \[s9\]/);
    expect(line(auditDetails("staff.invitation_accepted", { email: "a@b.c", roles: ["buyer"], invitationId: "inv-1" }))).toBe(
      "email: a@b.c · roles: buyer",
    );
  });

  test("an old row whose details do not fit, or of an action the table does not know, is shown as stored", () => {
    expect(line(auditDetails("staff.deactivate", { email: "a@b.c" }))).toBe('{"email":"a@b.c"}');
    expect(line(auditDetails("test.page", { i: 1 }))).toBe('{"i":1}');
    expect(line(auditDetails("spend.expire", { kind: "order", totals: { USD: "12.50" } }))).toBe(
      '{"kind":"order","totals":{"USD":"12.50"}}',
    );
  });

  test("a target reads in words with a link for a reader who may open its page, the id only where people quote it", () => {
    expect(auditTargetView("spend_request", "sr_1", ["admin"])).toEqual({
      type: "spend request",
      id: null,
      short: false,
      href: "/spend-approvals#sr_1",
    });
    expect(auditTargetView("staff", "s1", ["viewer"], new Map([["s1", "Ann Buyer"]]))).toEqual({
      type: "staff",
      name: "Ann Buyer",
      id: null,
      short: false,
      href: undefined,
    });
    expect(auditTargetView("staff", "s1", ["admin"])?.href).toBe("/staff");
    expect(auditTargetView("order", "o/1", ["viewer"])).toEqual({ type: "order", id: "o/1", short: true, href: "/orders/o%2F1" });
    expect(auditTargetView("setting", "spend.threshold", ["admin"])).toMatchObject({ id: "spend.threshold", short: false });
    expect(auditTargetView("some_old-kind", "x", ["admin"])).toEqual({ type: "some old kind", id: "x", short: true });
    expect(auditTargetView(null, null, ["admin"])).toBeNull();
  });

  test("every action's target kind is one the page can name", () => {
    for (const action of AUDIT_ACTION_KEYS) {
      const target = AUDIT_ACTIONS[action].target;
      if (target) expect(AUDIT_TARGETS[target].words, action).not.toBe("");
    }
  });
});
