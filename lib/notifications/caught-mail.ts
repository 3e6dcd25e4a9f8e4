import "server-only";
import { db } from "@/lib/db/client";
import type { CaughtMessage } from "./mail-catcher";

/** Keeps a caught message for the admins' Caught mail page; a resend under the same Message-ID is kept once. */
export async function storeCaughtMail(message: CaughtMessage): Promise<void> {
  await db().caughtMail.createMany({ data: [message], skipDuplicates: true });
}
