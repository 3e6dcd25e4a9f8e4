import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { notify } from "@/lib/notifications/notify";
import type { PersonSpender } from "@/lib/upstream/reports";

export const SHARE_REFUSED_ACTION = "upstream.share_exceeded";

/** How many minutes of an hour a person's share must refuse them before admins are told. */
export const SHARE_MINUTES_TO_ALERT = 3;

/**
 * A person's share of the upstream budget refused them: audited once per person and minute
 * (the budget tells only of the first refusal of a minute), so an admin sees who floods and
 * when, without a row per refused call. When it is the SHARE_MINUTES_TO_ALERT-th such minute
 * within an hour, admins are notified in the same transaction, once per person and clock hour
 * (the event key names the hour).
 */
export async function recordShareRefusal(by: PersonSpender): Promise<void> {
  const now = new Date();
  await db()
    .$transaction(async (tx) => {
      await recordAudit(tx, {
        action: SHARE_REFUSED_ACTION,
        actor: { staffId: by.staffId, email: by.email ?? null },
        targetId: by.staffId,
        details: { minute: new Date(now.getTime() - (now.getTime() % 60_000)).toISOString() },
      });
      const minutes = await tx.auditEvent.count({
        where: { action: SHARE_REFUSED_ACTION, targetId: by.staffId, at: { gt: new Date(now.getTime() - 3_600_000) } },
      });
      if (minutes < SHARE_MINUTES_TO_ALERT) return;
      await notify(tx, "upstream.share_repeated", { staffId: by.staffId, email: by.email ?? null, minutes, at: now });
    })
    .catch((error: unknown) =>
      logger.warn("the share refusal could not be audited", { error: error instanceof Error ? error.message : String(error) }),
    );
}
