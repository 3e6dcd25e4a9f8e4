import "server-only";
import type { Tx } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";

/**
 * Replaces a person's recovery codes with a fresh set and returns them in clear, the one time
 * they are ever shown; only their hashes are kept.
 */
export async function issueRecoveryCodes(tx: Tx, actor: Actor): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.recoveryCode.deleteMany({ where: { staffId: actor.staffId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ staffId: actor.staffId, codeHash: hashRecoveryCode(code) })) });
  await recordAudit(tx, {
    action: "second_factor.recovery_codes_issued",
    actor,
    targetId: actor.staffId,
    details: { count: codes.length },
  });
  return codes;
}
