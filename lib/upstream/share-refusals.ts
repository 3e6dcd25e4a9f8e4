import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { Spender } from "@/lib/upstream/client";

export const SHARE_REFUSED_ACTION = "upstream.share_exceeded";

/**
 * A person's share of the upstream budget refused them: audited once per person and minute
 * (the budget tells only of the first refusal of a minute), so an admin sees who floods and
 * when, without a row per refused call.
 */
export async function recordShareRefusal(by: Spender): Promise<void> {
  if (by.kind !== "person") return;
  await recordAudit(db(), {
    action: SHARE_REFUSED_ACTION,
    actor: { staffId: by.staffId, email: by.email ?? null },
    targetId: by.staffId,
    details: { minute: new Date(Date.now() - (Date.now() % 60_000)).toISOString() },
  }).catch((error: unknown) =>
    logger.warn("the share refusal could not be audited", { error: error instanceof Error ? error.message : String(error) }),
  );
}
