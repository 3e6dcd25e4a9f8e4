import { KIND_DEFINITIONS, NOTIFICATION_KINDS, kindsFor, type NotificationKind } from "./kinds";
import type { RoleName } from "@/lib/auth/permissions";

export type KindOption = { kind: string; label: string; who?: string };

const option = (kind: NotificationKind) => ({ kind, label: KIND_DEFINITIONS[kind].label });

/** The kinds a person with these roles can receive, as their own settings list them. */
export function kindOptionsFor(roles: readonly string[]): KindOption[] {
  return kindsFor(roles).map(option);
}

const PEOPLE: Record<RoleName, string> = {
  admin: "admins",
  buyer: "buyers",
  support: "support",
  finance: "finance",
  approver: "approvers",
  viewer: "viewers",
};

/** Every kind, for the workspace's defaults, each with who receives it ("approvers"). */
export function workspaceKindOptions(): KindOption[] {
  return NOTIFICATION_KINDS.map((kind) => ({
    ...option(kind),
    who: KIND_DEFINITIONS[kind].roles.map((role) => PEOPLE[role]).join(" and "),
  }));
}
