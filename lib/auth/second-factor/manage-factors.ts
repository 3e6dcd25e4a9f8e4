import "server-only";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import type { Actor } from "@/lib/auth/actor";
import { issueRecoveryCodes } from "./recovery-code-store";
import { mustHaveSecondFactor, readSecondFactorPolicy } from "./policy";
import { factorIdSchema, renameFactorSchema } from "./schemas";
import { secondFactorKind, type SecondFactorKind } from "./kinds";

export type FactorView = { id: string; kind: SecondFactorKind; name: string; createdAt: string; lastUsedAt: string | null };
export type MyFactors = { factors: FactorView[]; recoveryCodesLeft: number; required: boolean };

/** A person's own confirmed factors (never a secret or a key), for Account security. */
export async function listMyFactors(actor: Actor): Promise<MyFactors> {
  const [factors, recoveryCodesLeft, policy] = await Promise.all([
    db().secondFactor.findMany({ where: { staffId: actor.staffId, confirmedAt: { not: null } }, orderBy: { createdAt: "asc" } }),
    db().recoveryCode.count({ where: { staffId: actor.staffId, usedAt: null } }),
    readSecondFactorPolicy(),
  ]);
  return {
    factors: factors.map((f) => ({
      id: f.id,
      kind: secondFactorKind(f.kind),
      name: f.name,
      createdAt: f.createdAt.toISOString(),
      lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
    })),
    recoveryCodesLeft,
    required: mustHaveSecondFactor(actor.roles, policy),
  };
}

/** Removes one of one's own factors; the last one only where the policy does not require one. */
export async function removeMyFactor(actor: Actor, factorId: unknown): Promise<void> {
  const id = parseInput(factorIdSchema, factorId);
  await db().$transaction(async (tx) => {
    const factor = await tx.secondFactor.findFirst({ where: { id, staffId: actor.staffId } });
    if (!factor) throw new AppError("not_found", "No such second factor.");
    const others = await tx.secondFactor.count({
      where: { staffId: actor.staffId, confirmedAt: { not: null }, id: { not: id } },
    });
    if (others === 0 && mustHaveSecondFactor(actor.roles, await readSecondFactorPolicy(tx)))
      throw new AppError(
        "second_factor_required",
        "Your roles must keep a second factor: add another before removing this one.",
        {
          status: 409,
        },
      );
    await tx.secondFactor.delete({ where: { id } });
    if (others === 0) await tx.recoveryCode.deleteMany({ where: { staffId: actor.staffId } });
    await recordAudit(tx, {
      action: "second_factor.remove",
      actor,
      targetId: actor.staffId,
      details: { kind: secondFactorKind(factor.kind), name: factor.name },
    });
  });
}

/** Names one of one's own factors ("Work phone"), so that a list of several tells them apart. */
export async function renameMyFactor(actor: Actor, factorId: unknown, input: unknown): Promise<FactorView> {
  const id = parseInput(factorIdSchema, factorId);
  const { name } = parseInput(renameFactorSchema, input);
  return db().$transaction(async (tx) => {
    const factor = await tx.secondFactor.findFirst({ where: { id, staffId: actor.staffId, confirmedAt: { not: null } } });
    if (!factor) throw new AppError("not_found", "No such second factor.");
    const kind = secondFactorKind(factor.kind);
    const renamed = await tx.secondFactor.update({ where: { id }, data: { name } });
    await recordAudit(tx, {
      action: "second_factor.rename",
      actor,
      targetId: actor.staffId,
      details: { kind, from: factor.name, to: name },
    });
    return {
      id,
      kind,
      name,
      createdAt: renamed.createdAt.toISOString(),
      lastUsedAt: renamed.lastUsedAt?.toISOString() ?? null,
    };
  });
}

/** A fresh set of recovery codes (the old ones stop working), for a person who has a factor. */
export async function regenerateRecoveryCodes(actor: Actor): Promise<{ recoveryCodes: string[] }> {
  return db().$transaction(async (tx) => {
    const factors = await tx.secondFactor.count({ where: { staffId: actor.staffId, confirmedAt: { not: null } } });
    if (factors === 0) throw new AppError("no_second_factor", "Add a second factor first.", { status: 409 });
    return { recoveryCodes: await issueRecoveryCodes(tx, actor) };
  });
}
