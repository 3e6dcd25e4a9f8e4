import "server-only";
import { unresolvedEntries } from "@/lib/idempotency/ledger";
import type { OrderRequest } from "@/lib/upstream/client";
import { logger } from "@/lib/log";
import { spentByJob } from "@/lib/upstream/service";
import { sendLedgeredOrder } from "./place-order";

/**
 * Settles ledger entries whose outcome was never heard: the process died between
 * committing the key and the answer, or every retry timed out. Resending the stored
 * request under the stored key is safe: the upstream returns the order if it exists and
 * creates it if not. Run by the worker at start and periodically.
 */
export async function resumePendingOrders(
  options: { olderThanMs?: number; limit?: number } = {},
): Promise<{ resolved: number; failed: number }> {
  const entries = await unresolvedEntries("order.create", options.olderThanMs ?? 30_000, options.limit ?? 20);
  let resolved = 0;
  let failed = 0;
  for (const entry of entries) {
    try {
      await sendLedgeredOrder(
        entry.key,
        entry.requestBody as OrderRequest,
        entry.staffId ? { staffId: entry.staffId, email: "", name: "", roles: [] } : null,
        { priority: "money", deadlineMs: 120_000, by: spentByJob("orders-resume") },
      );
      resolved += 1;
    } catch (error) {
      // A definitive refusal is recorded by sendLedgeredOrder; an unknown outcome stays for next time.
      const code = (error as { code?: string }).code;
      if (code === "outcome_unknown") failed += 1;
      else resolved += 1;
      logger.info("pending order resumed", { key: entry.key, outcome: code ?? "error" });
    }
  }
  return { resolved, failed };
}
