import "server-only";
import { db } from "@/lib/db/client";
import { rolesWith } from "@/lib/notifications/kinds/define-kind";

/** Active staff who may read the books: whom the monthly journal link may go to. */
export async function journalReaders(): Promise<{ id: string; name: string; email: string }[]> {
  return db().staff.findMany({
    where: { active: true, roles: { hasSome: rolesWith("books.read") } },
    select: { id: true, name: true, email: true },
    orderBy: { name: "asc" },
  });
}
