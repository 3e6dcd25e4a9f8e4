import "server-only";
import { db } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";

export async function getSpendRequestRow(id: string): Promise<SpendRequest> {
  const row = await db().spendRequest.findUnique({ where: { id } });
  if (!row) throw new AppError("not_found", "This spend request does not exist.");
  return row;
}
