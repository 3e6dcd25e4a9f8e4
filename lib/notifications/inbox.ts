import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { parseInput, singleLineText } from "@/lib/validation";
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

/** The page's cursor: the last row's time and id ("2026-11-27T10:00:00.000Z_<uuid>"); anything else starts at the top. */
const cursorSchema = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z_[0-9a-f-]{36}$/)
  .optional()
  .catch(undefined);

/** A person's own notifications, newest first, a page at a time (keyset on time and id). */
export async function listInbox(
  actor: Actor,
  options: { before?: string; unreadOnly?: boolean } = {},
): Promise<{ items: InboxItem[]; next: string | null }> {
  const cursor = cursorSchema.parse(options.before);
  const [at, id] = cursor ? [new Date(cursor.slice(0, 24)), cursor.slice(25)] : [null, null];
  const rows = await db().notification.findMany({
    where: {
      staffId: actor.staffId,
      ...(options.unreadOnly ? { readAt: null } : {}),
      ...(at && id ? { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: INBOX_PAGE + 1,
    include: { event: true },
  });
  const page = rows.slice(0, INBOX_PAGE);
  const last = page.at(-1);
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
    next: rows.length > INBOX_PAGE && last ? `${last.createdAt.toISOString()}_${last.id}` : null,
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

/** An app page as the browser shows it: path, query and hash ("/spend-approvals#sr_…"). */
const openedSchema = z.strictObject({
  link: singleLineText()
    .max(2000)
    .refine((v) => v.startsWith("/") && !v.startsWith("//"), "Give a page of this app, starting with /."),
});

/**
 * A person opened a page: their unread notifications that led there are read now (the
 * bell does not count what the person is looking at). A link matches the page exactly,
 * or the page without its #anchor: "/settings" is read on "/settings#notifications", but
 * "/spend-approvals#sr_1" only on that request's card, not on the list of all of them.
 */
export async function markOpenedRead(actor: Actor, input: unknown): Promise<{ marked: number; at: number }> {
  const { link } = parseInput(openedSchema, input);
  const page = link.split("#")[0]!;
  const { count } = await db().notification.updateMany({
    where: { staffId: actor.staffId, readAt: null, event: { link: { in: [...new Set([link, page])] } } },
    data: { readAt: new Date() },
  });
  // When the read is committed: a bell counted before it takes it off its figure (BellFigure).
  return { marked: count, at: Date.now() };
}
