import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { kindLabel } from "./kinds";

export const INBOX_PAGE = 30;

export type InboxItem = {
  id: string;
  kind: string;
  kindLabel: string;
  title: string;
  body: string | null;
  link: string;
  at: string;
  read: boolean;
};

const cursorSchema = z.iso.datetime().optional().catch(undefined);

/** A person's own notifications, newest first, a page at a time (`before`: the last one's time). */
export async function listInbox(
  actor: Actor,
  options: { before?: string; unreadOnly?: boolean } = {},
): Promise<{ items: InboxItem[]; next: string | null }> {
  const before = cursorSchema.parse(options.before);
  const rows = await db().notification.findMany({
    where: {
      staffId: actor.staffId,
      ...(options.unreadOnly ? { readAt: null } : {}),
      ...(before ? { createdAt: { lt: new Date(before) } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: INBOX_PAGE + 1,
    include: { event: true },
  });
  const page = rows.slice(0, INBOX_PAGE);
  return {
    items: page.map((n) => ({
      id: n.id,
      kind: n.event.kind,
      kindLabel: kindLabel(n.event.kind),
      title: n.event.title,
      body: n.event.body,
      link: n.event.link,
      at: n.createdAt.toISOString(),
      read: n.readAt !== null,
    })),
    next: rows.length > INBOX_PAGE ? (page.at(-1)?.createdAt.toISOString() ?? null) : null,
  };
}

const idSchema = z.uuid();

/** Marks one of the person's own notifications read; another's is "not found". */
export async function markRead(actor: Actor, id: string): Promise<void> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw new AppError("not_found", "No such notification.");
  const { count } = await db().notification.updateMany({
    where: { id: parsed.data, staffId: actor.staffId },
    data: { readAt: new Date() },
  });
  if (count === 0) throw new AppError("not_found", "No such notification.");
}

export async function markAllRead(actor: Actor): Promise<{ marked: number }> {
  const { count } = await db().notification.updateMany({
    where: { staffId: actor.staffId, readAt: null },
    data: { readAt: new Date() },
  });
  return { marked: count };
}
