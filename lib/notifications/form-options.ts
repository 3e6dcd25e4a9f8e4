import { KIND_DEFINITIONS, NOTIFICATION_KINDS } from "./kinds";

/** The kinds as a form lists them. */
export function kindOptions(): { kind: string; label: string }[] {
  return NOTIFICATION_KINDS.map((kind) => ({ kind, label: KIND_DEFINITIONS[kind].label }));
}
