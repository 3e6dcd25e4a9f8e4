import type { z } from "zod";
import { ROLES, can, type Permission, type RoleName } from "@/lib/auth/permissions";

/** What every channel shows (in-app row, email, chat: compose.ts lays it out per channel). */
export type Composed = {
  /** One line, what and how much: "Withdrawal of $500.00 from Fay Finance waits for your approval". */
  title: string;
  /** Optional plain text; amounts, references and names only, never a code or a key. */
  body?: string;
  /** App path the notification links to (sign-in required). */
  link: string;
};

/** Narrows the kind's roles: only `staffIds` (a kind sent `to: "named"` needs them), less `exceptStaffIds`. */
export type Audience = { staffIds?: string[]; exceptStaffIds?: string[] };

/**
 * One kind of notification, whole: who may receive it, what a producer must say (`payload`,
 * checked by notify()), and what follows from it. Methods, not function properties, so one
 * table can hold kinds of different payloads.
 */
export type KindDefinition<Payload extends z.ZodType = z.ZodType> = {
  /** For people: the preferences' and Settings' checkboxes, the inbox, the chat's context line. */
  label: string;
  /**
   * Only people holding one of `roles` ever receive it, so a person's settings list only these
   * kinds. `to: "roles"`: every active holder (less those `audience` excepts); `to: "named"`:
   * only the holders `audience` names (the requester, the buyer).
   */
  roles: readonly RoleName[];
  to: "roles" | "named";
  payload: Payload;
  /** Unique per causing event: recording the same key twice records nothing new. */
  eventKey(payload: z.output<Payload>): string;
  compose(payload: z.output<Payload>): Composed;
  audience?(payload: z.output<Payload>): Audience;
};

export function defineKind<Payload extends z.ZodType>(definition: KindDefinition<Payload>): KindDefinition<Payload> {
  return definition;
}

/** The roles that hold any of these permissions (lib/auth/permissions.ts, the one table). */
export function rolesWith(...permissions: Permission[]): RoleName[] {
  return ROLES.filter((role) => permissions.some((permission) => can([role], permission)));
}

/** Who can ask for an approval, and so hear its decision: a buyer's order or file, finance's withdrawal. */
export const REQUESTERS = rolesWith("orders.create", "withdrawals.request");
