import "server-only";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/validation";
import { emailChoicesSchema } from "./preference-input";

/** A person's own choices (no permission beyond being signed in: it is their mail). */
export async function savePreferences(actor: Actor, input: unknown): Promise<void> {
  const choices = parseInput(emailChoicesSchema, input);
  const data = { ...choices, emailKinds: [...choices.emailKinds] };
  await db().notificationPreference.upsert({
    where: { staffId: actor.staffId },
    create: { staffId: actor.staffId, ...data },
    update: data,
  });
}

/** Back to the workspace's defaults. */
export async function resetPreferences(actor: Actor): Promise<void> {
  await db().notificationPreference.deleteMany({ where: { staffId: actor.staffId } });
}
