import "server-only";
import type { Prisma, Tx } from "@/lib/db/client";

/** Stores one workspace setting under its key, with who set it; the caller audits it in the same transaction. */
export async function writeSetting(tx: Tx, key: string, value: Prisma.InputJsonValue, staffId: string): Promise<void> {
  await tx.setting.upsert({
    where: { key },
    create: { key, value, updatedBy: staffId },
    update: { value, updatedBy: staffId },
  });
}
