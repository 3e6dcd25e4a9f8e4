import { inject } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import type { Actor } from "@/lib/auth/actor";

export const databaseUrl = () => inject("databaseUrl");

/** A staff member inserted directly (fast path for tests), returned as an Actor. */
export async function makeStaff(
  roles: string[],
  overrides: { password?: string; email?: string; active?: boolean } = {},
): Promise<Actor & { password: string }> {
  const password = overrides.password ?? "correct horse battery staple";
  const email = overrides.email ?? `${roles.join("-") || "none"}-${randomUUID().slice(0, 8)}@test.local`;
  const staff = await db().staff.create({
    data: {
      email,
      name: `Test ${roles.join(" ")}`,
      roles: roles as never,
      passwordHash: await hashPassword(password),
      active: overrides.active ?? true,
    },
  });
  return {
    staffId: staff.id,
    email: staff.email,
    name: staff.name,
    roles: staff.roles,
    ip: "203.0.113.7",
    userAgent: "vitest",
    password,
  };
}

export function uniqueIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `198.51.${n()}.${n()}`;
}
