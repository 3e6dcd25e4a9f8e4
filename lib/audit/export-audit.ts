import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { auditWhere, type AuditFilter } from "./list-audit";
import { streamCsv } from "@/lib/csv-stream";

const HEADER = ["id", "at", "actor", "action", "targetType", "targetId", "ip", "userAgent", "correlationId", "details"];
const BATCH = 1000;

/** The filtered audit log as CSV, oldest first, a batch at a time by id. */
export async function exportAuditCsv(actor: Actor, filter: AuditFilter): Promise<ReadableStream<Uint8Array>> {
  assertCan(actor, "audit.read");
  const where = auditWhere(filter);
  return streamCsv<bigint>(HEADER, async (after) => {
    const batch = await db().auditEvent.findMany({
      where: after ? { AND: [where, { id: { gt: after } }] } : where,
      orderBy: { id: "asc" },
      take: BATCH,
    });
    const rows = batch.map((r) => [
      r.id.toString(),
      r.at.toISOString(),
      r.actorEmail ?? "",
      r.action,
      r.targetType ?? "",
      r.targetId ?? "",
      r.ip ?? "",
      r.userAgent ?? "",
      r.correlationId ?? "",
      r.details ? JSON.stringify(r.details) : "",
    ]);
    return { rows, next: batch.length === BATCH ? batch[batch.length - 1]!.id : null };
  });
}
