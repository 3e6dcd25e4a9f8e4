import "server-only";
import type { Prisma, Tx } from "@/lib/db/client";

export type AuditEntry = {
  action: string;
  actor?: { staffId?: string | null; email?: string | null; ip?: string | null; userAgent?: string | null } | null;
  targetType?: string;
  targetId?: string;
  correlationId?: string | null;
  /** Never secrets: no passwords, codes or keys. Keys named like secrets are refused. */
  details?: Record<string, unknown>;
};

const SECRET_KEY = /pass(word)?|secret|token|api.?key|code(s)?$|pin$|artifact/i;

/**
 * Appends one audit row inside the caller's transaction, so that the change and its
 * record commit together; if this insert fails the whole action fails (fail closed).
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  if (entry.details) assertNoSecrets(entry.details);
  await tx.auditEvent.create({
    data: {
      action: entry.action,
      actorId: entry.actor?.staffId ?? null,
      actorEmail: entry.actor?.email ?? null,
      ip: entry.actor?.ip ?? null,
      userAgent: entry.actor?.userAgent?.slice(0, 512) ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      correlationId: entry.correlationId ?? null,
      details: (entry.details ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
}

function assertNoSecrets(details: Record<string, unknown>, path = ""): void {
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY.test(key)) throw new Error(`Audit details must not carry secrets (field "${path}${key}")`);
    if (value && typeof value === "object" && !Array.isArray(value))
      assertNoSecrets(value as Record<string, unknown>, `${path}${key}.`);
  }
}
