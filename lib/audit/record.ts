import "server-only";
import type { Prisma, Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import {
  AUDIT_ACTIONS,
  auditDetailsProblem,
  isAuditAction,
  type AuditDetailsOf,
  type AuditTargetOf,
  type RecordableAuditAction,
} from "./actions";

export type AuditActor = {
  staffId?: string | null;
  email?: string | null;
  ip?: string | null;
  userAgent?: string | null;
} | null;

type EntryOf<A extends RecordableAuditAction> = {
  action: A;
  actor?: AuditActor;
  correlationId?: string | null;
} & (AuditTargetOf<A> extends null ? { targetId?: never } : { targetId?: string | null }) &
  (undefined extends AuditDetailsOf<A> ? { details?: AuditDetailsOf<A> } : { details: AuditDetailsOf<A> });

/**
 * One entry: an action of the table (lib/audit/actions.ts) with the details its schema
 * describes. The target's kind is the action's, from the table; the call site names the id.
 * Details never hold secrets (no passwords, codes or keys): keys named like secrets are refused.
 */
export type AuditEntry = { [A in RecordableAuditAction]: EntryOf<A> }[RecordableAuditAction];

const SECRET_KEY = /pass(word)?|secret|token|api.?key|code(s)?$|pin$|artifact/i;

/**
 * Appends one audit row inside the caller's transaction, so that the change and its
 * record commit together; if this insert fails the whole action fails (fail closed).
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  // The type refuses any other action; this is for a caller that got around it (a cast, JavaScript).
  if (!isAuditAction(entry.action) || "retired" in AUDIT_ACTIONS[entry.action])
    throw new Error(`"${entry.action}" is not an audit action that is recorded`);
  const spec = AUDIT_ACTIONS[entry.action];
  if (entry.details) assertNoSecrets(entry.details);
  checkDetails(entry);
  await tx.auditEvent.create({
    data: {
      action: entry.action,
      actorId: entry.actor?.staffId ?? null,
      actorEmail: entry.actor?.email ?? null,
      ip: entry.actor?.ip ?? null,
      userAgent: entry.actor?.userAgent?.slice(0, 512) ?? null,
      targetType: spec.target,
      targetId: entry.targetId ?? null,
      correlationId: entry.correlationId ?? null,
      details: (entry.details ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
}

/**
 * Details that do not match their action's schema throw in development and tests, where every
 * call site is exercised, so a drifted schema or call site is caught there. In production the
 * row is written as given and the mismatch logged: the types already hold the call sites to
 * the schemas, and throwing would turn a detail's shape into a failed action, for some of them
 * after the upstream has acted (an order placed, a withdrawal sent), where the failure would
 * leave the act done and unrecorded. The audit page shows such a row's details raw.
 */
function checkDetails(entry: AuditEntry): void {
  const problem = auditDetailsProblem(entry.action, entry.details);
  if (!problem) return;
  const message = `Audit details of "${entry.action}" do not match its schema: ${problem}`;
  if (getEnv().NODE_ENV !== "production") throw new Error(message);
  logger.error("audit details recorded as given", { action: entry.action, problem });
}

function assertNoSecrets(details: object, path = ""): void {
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY.test(key)) throw new Error(`Audit details must not carry secrets (field "${path}${key}")`);
    if (value && typeof value === "object" && !Array.isArray(value)) assertNoSecrets(value as object, `${path}${key}.`);
  }
}
