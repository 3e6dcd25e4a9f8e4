import { KIND_DEFINITIONS, NOTIFICATION_KINDS } from "./kinds";

/** The kinds as a form lists them. */
export function kindOptions(): { kind: string; label: string }[] {
  return NOTIFICATION_KINDS.map((kind) => ({ kind, label: KIND_DEFINITIONS[kind].label }));
}

/** Every IANA zone the runtime knows, with `current` first kept in the list even if it is not. */
export function timeZoneOptions(current: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes(current) ? zones : [current, ...zones];
}
