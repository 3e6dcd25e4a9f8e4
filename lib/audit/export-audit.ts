import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { auditWhere, type AuditFilter } from "./list-audit";
import { toCsvRow } from "@/lib/csv";

const HEADER = ["id", "at", "actor", "action", "targetType", "targetId", "ip", "userAgent", "correlationId", "details"];

/**
 * Streams the filtered audit log as CSV, oldest first, in batches (no whole-table load).
 * The first batch is read before the stream is handed back, so a filter the database
 * refuses is an error answer, not a 200 whose connection is then cut.
 */
export async function exportAuditCsv(actor: Actor, filter: AuditFilter): Promise<ReadableStream<Uint8Array>> {
  assertCan(actor, "audit.read");
  const where = auditWhere(filter);
  const encoder = new TextEncoder();
  let cursor: bigint | undefined;
  const nextBatch = () =>
    db().auditEvent.findMany({
      where: cursor ? { AND: [where, { id: { gt: cursor } }] } : where,
      orderBy: { id: "asc" },
      take: 1000,
    });
  let pending: Awaited<ReturnType<typeof nextBatch>> | null = await nextBatch();
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(toCsvRow(HEADER)));
    },
    async pull(controller) {
      const batch = pending ?? (await nextBatch());
      pending = null;
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
