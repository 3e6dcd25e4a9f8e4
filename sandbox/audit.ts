import type { Sandbox } from "./context";
import { pushBounded, type AuditEntry } from "./state";

// Every mutating call is attributed to the key that made it (contract §5.8); the control plane lists the trail.

const MAX_AUDIT_ENTRIES = 10_000;

export function audit(sb: Sandbox, entry: Omit<AuditEntry, "atMs">): void {
  pushBounded(sb.state.audit, { atMs: sb.clock.now(), ...entry }, MAX_AUDIT_ENTRIES);
}
