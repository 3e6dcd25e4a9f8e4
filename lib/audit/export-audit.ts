import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { auditWhere, type AuditFilter } from "./list-audit";
import { toCsvRow } from "@/lib/csv";

const HEADER = ["id", "at", "actor", "action", "targetType", "targetId", "ip", "userAgent", "correlationId", "details"];

/** Streams the filtered audit log as CSV, oldest first, in batches (no whole-table load). */
export function exportAuditCsv(actor: Actor, filter: AuditFilter): ReadableStream<Uint8Array> {
  assertCan(actor, "audit.read");
  const where = auditWhere(filter);
  const encoder = new TextEncoder();
  let cursor: bigint | undefined;
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(toCsvRow(HEADER)));
      }
      const batch = await db().auditEvent.findMany({
        where: cursor ? { AND: [where, { id: { gt: cursor } }] } : where,
        orderBy: { id: "asc" },
        take: 1000,
      });
      if (batch.length === 0) return controller.close();
      cursor = batch[batch.length - 1]!.id;
      const text = batch
        .map((r) =>
          toCsvRow([
            r.id.toString(), r.at.toISOString(), r.actorEmail ?? "", r.action, r.targetType ?? "", r.targetId ?? "",
            r.ip ?? "", r.userAgent ?? "", r.correlationId ?? "", r.details ? JSON.stringify(r.details) : "",
          ]),
        )
        .join("");
      controller.enqueue(encoder.encode(text));
    },
  });
}
