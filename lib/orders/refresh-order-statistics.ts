import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";

/**
 * Fresh planner statistics for the orders (and the wallet movements their trigger wrote)
 * after a write of many of them at once (the history import's last page, a "read every order
 * again"): until autovacuum (or the embedded database's upkeep) analyses the table, the planner
 * misjudges filters on the new rows (docs/decisions/0010-reads-at-100000-orders.md). A failure
 * is logged: the upkeep analyses later anyway.
 */
export async function refreshOrderStatistics(): Promise<void> {
  try {
    await db().$executeRaw`ANALYZE "Order", "WalletMovement"`;
  } catch (error) {
    logger.warn("orders not analysed after a large write", { error: error instanceof Error ? error.message : String(error) });
  }
}
