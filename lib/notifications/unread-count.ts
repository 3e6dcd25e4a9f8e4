import "server-only";
import { cache } from "react";
import { sqlQuery } from "@/lib/db/client";
import { UNREAD_CAP } from "./kinds";

const COUNT_UNREAD = `SELECT count(*)::int AS "n" FROM (
  SELECT 1 FROM "Notification" WHERE "staffId" = $1 AND "readAt" IS NULL LIMIT ${UNREAD_CAP}) AS unread`;

/**
 * The bell's figure, on every page of the shell: one prepared statement on the
 * (staffId, readAt) index, capped, and read once per render however many bells ask.
 */
export const unreadCount = cache(async (staffId: string): Promise<number> => {
  const [row] = await sqlQuery<{ n: number }>(COUNT_UNREAD, [staffId]);
  return row?.n ?? 0;
});

/** The figure as a page shows it, with when it was counted (ms): reads after that are taken off in the browser (BellFigure). */
export type UnreadFigure = { count: number; countedAt: number };

export const unreadFigure = cache(async (staffId: string): Promise<UnreadFigure> => {
  const countedAt = Date.now();
  return { count: await unreadCount(staffId), countedAt };
});
