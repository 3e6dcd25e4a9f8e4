import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { logger } from "@/lib/log";
import { enqueueOrderImport } from "./jobs";
import { ensureSyncState } from "./sync-state";

export const importActionSchema = z.strictObject({
  action: z.enum(["pause", "resume", "restart"], "Use pause, resume or restart."),
});

/**
 * An admin pauses, resumes or restarts the history import. Restart walks every order
 * again from the newest (for changes the safety-net sync cannot see, such as a refund of
 * an old order); what is already mirrored is updated, never duplicated. Audited with the
 * change, in one transaction.
 */
export async function controlImport(actor: Actor, input: unknown): Promise<{ state: string }> {
  assertCan(actor, "settings.manage");
  const { action } = parseInput(importActionSchema, input);
  const { source } = await ensureSyncState();
  const state = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "OrderSync" WHERE "source" = ${source} FOR UPDATE`;
    const row = await tx.orderSync.findUniqueOrThrow({ where: { source } });
    if (action === "pause" && row.importState !== "running")
      throw new AppError("conflict", `The import is ${row.importState}; only a running import can be paused.`, { status: 409 });
    if (action === "resume" && row.importState !== "paused")
      throw new AppError("conflict", `The import is ${row.importState}; only a paused import can be resumed.`, { status: 409 });
    const data =
      action === "pause"
        ? { importState: "paused" }
        : action === "resume"
          ? { importState: "running" }
          : {
              importState: "running",
              importCursor: null,
              importPages: 0,
              importOrders: 0,
              importStartedAt: new Date(),
              importFinishedAt: null,
              lastError: null,
            };
    await tx.orderSync.update({ where: { source }, data });
    await recordAudit(tx, {
      action: `orders.import_${action}`,
      actor,
      targetId: source,
      details: { from: row.importState, pagesRead: row.importPages },
    });
    return data.importState;
  });
  // The keeper restarts the chain within a minute anyway; queueing now just saves that minute.
  if (state === "running")
    await enqueueOrderImport().catch((error: unknown) =>
      logger.warn("order import not queued; the keeper will start it", { error: String(error) }),
    );
  return { state };
}
