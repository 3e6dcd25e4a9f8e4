import { AppError } from "@/lib/errors";
import { can, type Permission } from "./permissions";

/** Who is acting, and from where; passed explicitly to every attributed domain function. */
export type Actor = {
  staffId: string;
  email: string;
  name: string;
  roles: readonly string[];
  ip?: string | null;
  userAgent?: string | null;
};

/** Deny by default: throws `forbidden` unless one of the actor's roles grants the permission. */
export function assertCan(actor: Actor, permission: Permission): void {
  if (!can(actor.roles, permission)) {
    throw new AppError("forbidden", "You do not have permission to do this.");
  }
}
