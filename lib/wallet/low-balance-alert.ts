import "server-only";
import { db, type Tx } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { notify } from "@/lib/notifications/notify";
import { readSettings } from "@/lib/settings/get-settings";
import { decimalToMinor } from "./low-balance";

/**
 * Finance hears once when a currency's available balance crosses below its low-balance
 * threshold (Settings), and not again on later reads or orders until a read has seen it back
 * at or above the threshold. The latch is one `LowBalanceLatch` row per currency: `low` is
 * what the last read that changed it saw, `episode` counts the crossings below and names the
 * notification's event key (`wallet.low_balance:USD:3`), `changedAt` is that read's time, so
 * an older read that arrives late never flips it back.
 *
 * Called with every balance read this app makes of the upstream (lib/wallet/read-balances.ts:
 * the pages' shared read, made afresh after this process placed an order; the wallet page; the
 * worker's read every two minutes, lib/wallet/jobs.ts). A read that changes nothing costs one SELECT; a crossing is one
 * transaction: the latch's row locked and moved, and the notification recorded with it.
 * A failure is logged and never fails the read.
 */
export async function checkLowBalances(
  readAt: Date,
  items: readonly { currency: string; availableMinor: string }[],
): Promise<void> {
  try {
    const { lowBalance } = await readSettings();
    const seen = items.flatMap((item) => {
      const threshold = lowBalance[item.currency];
      const thresholdMinor = threshold === undefined ? null : decimalToMinor(threshold, item.currency);
      if (thresholdMinor === null) return [];
      const availableMinor = BigInt(item.availableMinor);
      return [{ currency: item.currency, availableMinor, thresholdMinor, low: availableMinor < thresholdMinor }];
    });
    if (seen.length === 0) return;
    const latches = new Map(
      (await db().lowBalanceLatch.findMany({ where: { currency: { in: seen.map((s) => s.currency) } } })).map((l) => [
        l.currency,
        l,
      ]),
    );
    for (const reading of seen) {
      const latch = latches.get(reading.currency);
      if ((latch?.low ?? false) === reading.low) continue;
      await db().$transaction((tx) => moveLatch(tx, readAt, reading));
    }
  } catch (error) {
    logger.warn("low-balance check not recorded", { error: error instanceof Error ? error.message : String(error) });
  }
}

type Reading = { currency: string; availableMinor: bigint; thresholdMinor: bigint; low: boolean };

async function moveLatch(tx: Tx, readAt: Date, reading: Reading): Promise<void> {
  await tx.$executeRaw`INSERT INTO "LowBalanceLatch" ("currency", "changedAt") VALUES (${reading.currency}, to_timestamp(0)) ON CONFLICT DO NOTHING`;
  const [latch] = await tx.$queryRaw<{ low: boolean; episode: number; changedAt: Date }[]>`
    SELECT "low", "episode", "changedAt" FROM "LowBalanceLatch" WHERE "currency" = ${reading.currency} FOR UPDATE`;
  if (!latch || latch.low === reading.low || latch.changedAt > readAt) return;
  const episode = reading.low ? latch.episode + 1 : latch.episode;
  await tx.lowBalanceLatch.update({
    where: { currency: reading.currency },
    data: { low: reading.low, episode, changedAt: readAt },
  });
  if (!reading.low) return;
  await notify(tx, "wallet.low_balance", {
    currency: reading.currency,
    availableMinor: reading.availableMinor,
    thresholdMinor: reading.thresholdMinor,
    episode,
  });
}
