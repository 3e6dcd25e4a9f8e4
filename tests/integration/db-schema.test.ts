import { describe, expect, test } from "vitest";
import path from "node:path";
import pg from "pg";
import { db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { databaseUrl } from "../support/db";

/**
 * The migrations (hand-written SQL) and schema.prisma must agree: every model and field
 * is written and read back through the generated client on the freshly migrated database.
 */
describe("migrations agree with schema.prisma", () => {
  test("every model and field round-trips through the generated client", async () => {
    const staff = await db().staff.create({
      data: { email: `schema-${Date.now()}@test.local`, name: "Schema", passwordHash: "$argon2id$x", roles: ["admin", "viewer"], active: false, sessionVersion: 7 },
    });
    expect(await db().staff.findUniqueOrThrow({ where: { id: staff.id } })).toEqual(staff);

    const at = new Date("2026-01-02T03:04:05.678Z");
    const session = await db().staffSession.create({
      data: { staffId: staff.id, sessionVersion: 7, createdAt: at, lastSeenAt: at, reauthAt: at, endedAt: at, endReason: "x", ip: "127.0.0.1", userAgent: "ua" },
    });
    expect(await db().staffSession.findUniqueOrThrow({ where: { id: session.id } })).toEqual(session);

    const throttle = await db().signInThrottle.create({ data: { key: `k-${Date.now()}`, failures: 3, lockedUntil: at, lastFailureAt: at } });
    expect(await db().signInThrottle.findUniqueOrThrow({ where: { key: throttle.key } })).toEqual(throttle);

    const audit = await db().auditEvent.create({
      data: { at, actorId: staff.id, actorEmail: staff.email, action: "a", targetType: "t", targetId: "i", ip: "::1", userAgent: "u", correlationId: "c", details: { nested: { n: 1 }, list: [1, "2"] } },
    });
    expect(await db().auditEvent.findUniqueOrThrow({ where: { id: audit.id } })).toEqual(audit);

    const setting = await db().setting.create({ data: { key: `s-${Date.now()}`, value: { amount: "10.50" }, updatedBy: staff.id } });
    expect(await db().setting.findUniqueOrThrow({ where: { key: setting.key } })).toEqual(setting);

    // Cascade declared in the schema is present in the SQL.
    await db().staff.delete({ where: { id: staff.id } });
    expect(await db().staffSession.count({ where: { staffId: staff.id } })).toBe(0);
  });

  test("migrations are recorded the way Prisma records them, and re-running applies nothing", async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const { rows } = await client.query(`SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations"`);
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    const again = await migrate(databaseUrl(), path.resolve("prisma/migrations"));
    expect(again.applied).toEqual([]);
  });

  test("several instances migrating at once do not collide", async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(databaseUrl(), path.resolve("prisma/migrations"))));
    expect(results.every((r) => r.applied.length === 0)).toBe(true);
  });
});
