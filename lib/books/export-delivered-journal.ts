import "server-only";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { openJournalLink } from "./delivery-link";
import { exportJournal } from "./export-journal";

const deliveredSchema = z.strictObject({ t: z.string().min(1, "The link has no token.").max(2_000, "The link is not valid.") });

/** The journal an emailed link names, for a signed-in reader of the books; an expired or altered link is refused. */
export async function exportDeliveredJournal(actor: Actor, input: unknown) {
  const { t } = parseInput(deliveredSchema, input);
  const link = await openJournalLink(t);
  if (!link)
    throw new AppError(
      "link_expired",
      "This link has expired or is not valid: download the journal from the accounting export page.",
      {
        status: 410,
      },
    );
  return exportJournal(actor, link);
}
