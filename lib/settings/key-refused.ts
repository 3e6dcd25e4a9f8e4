import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import type { KeyRefusal } from "@/lib/upstream/reports";

/**
 * A refusal that begins an episode (lib/upstream/key-health.ts): audited naming the key, whatever
 * call met it, and admins told (Settings shows each key's health and the fix), in the
 * transaction that records it. The person refused is told admins were alerted
 * (lib/upstream/to-app-error.ts): they are, once per key (401) or key and scope (403).
 */
export async function auditKeyRefusal(tx: Tx, refusal: KeyRefusal): Promise<void> {
  await recordAudit(tx, {
    action: refusal.status === 401 ? "upstream.key_refused" : "upstream.key_scope_refused",
    actor: null,
    targetId: refusal.lookup,
    correlationId: refusal.correlationId,
    details: { key: refusal.key, scope: refusal.scope, message: refusal.message },
  });
  await notify(
    tx,
    "upstream.key_refused",
    refusal.status === 401
      ? { status: 401, keyName: refusal.key, lookup: refusal.lookup, since: refusal.at }
      : { status: 403, keyName: refusal.key, lookup: refusal.lookup, scope: refusal.scope },
  );
}
