import "server-only";
import { db } from "@/lib/db/client";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";

/**
 * Reveal-quota breaches of the last 24 hours: the alert admins see on the audit page, and
 * support (whose reveals the quota limits) on their home page.
 */
export async function recentQuotaAlerts(actor: Actor): Promise<{ count: number; people: string[] }> {
  if (!can(actor.roles, "staff.manage") && !can(actor.roles, "codes.reveal")) return { count: 0, people: [] };
  const rows = await db().auditEvent.findMany({
    where: { action: "order.reveal_quota_exceeded", at: { gt: new Date(Date.now() - 86_400_000) } },
    select: { actorEmail: true },
    take: 500,
  });
  return { count: rows.length, people: [...new Set(rows.map((r) => r.actorEmail ?? "unknown"))] };
}
