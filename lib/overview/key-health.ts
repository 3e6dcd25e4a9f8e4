import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { isLocalMode, KEY_VARIABLES } from "@/lib/env";
import { upstreamKeysAnnounced } from "@/lib/upstream/service";

/** A key's expiry is warned of this long ahead. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

export type KeyProblem =
  | { kind: "expired"; at: string }
  | { kind: "expires_soon"; at: string; days: number; nextVariable: string }
  | { kind: "refused"; status: number; scope: string | null; message: string | null; at: string }
  | { kind: "rotation"; since: string };

/**
 * How a key stands, worst first: "stopped" when what it serves fails for everyone (refused or
 * expired, with no next key taking over), "attention" for any other problem, "unused" when no
 * call has yet told whether it works, else "healthy".
 */
export type KeyState = "stopped" | "attention" | "unused" | "healthy";

/** One upstream key as admins see it: its public lookup segment, never the secret. */
export type KeyHealthView = {
  lookup: string;
  name: "read" | "ordering" | "payout" | "general";
  slot: "active" | "next";
  scopes: string[];
  heldBy: string[];
  expiresAt: string | null;
  lastSuccessAt: string | null;
  lastRefusal: { at: string; status: number; scope: string | null; message: string | null } | null;
  inUseSince: string | null;
  problems: KeyProblem[];
  state: KeyState;
  /** When the work this key serves stopped (its run of refusals began, or it expired); set when `state` is "stopped". */
  stoppedSince: string | null;
  /** Where a replacement goes: the slot's environment variable, and whether the launcher issues keys itself (local mode). */
  fix: { variable: string; localMode: boolean };
};

const NAMES = ["read", "ordering", "payout", "general"] as const;
const ORDER = new Map<string, number>(NAMES.map((name, i) => [name, i]));

/**
 * Key health (Settings, and the admin home when something is wrong): every key a process of
 * the app holds, as the processes recorded it (lib/upstream/key-health.ts), with what needs an
 * admin: an expiry within EXPIRY_WARNING_DAYS (or past), a 401/403 newer than the key's last
 * success (the upstream's own words: "The API key lacks the scope orders.create."), and a
 * rotation in progress (the next key in use since when: revoke the old one and promote it).
 */
export async function getKeyHealth(actor: Actor, now = new Date()): Promise<KeyHealthView[]> {
  assertCan(actor, "settings.read");
  await upstreamKeysAnnounced();
  const rows = await db().upstreamKey.findMany({ where: { NOT: { heldBy: { isEmpty: true } } } });
  const withNext = new Set(rows.filter((row) => row.slot === "next").map((row) => row.name));
  const localMode = isLocalMode();
  return rows
    .map((row): KeyHealthView => {
      const name = (NAMES as readonly string[]).includes(row.name) ? (row.name as KeyHealthView["name"]) : "general";
      const variable = KEY_VARIABLES[name];
      const problems: KeyProblem[] = [];
      if (row.expiresAt) {
        const days = Math.floor((row.expiresAt.getTime() - now.getTime()) / DAY_MS);
        if (row.expiresAt <= now) problems.push({ kind: "expired", at: row.expiresAt.toISOString() });
        else if (days < EXPIRY_WARNING_DAYS)
          problems.push({ kind: "expires_soon", at: row.expiresAt.toISOString(), days, nextVariable: `${variable}_NEXT` });
      }
      const lastRefusal =
        row.lastRefusalAt && row.lastRefusalStatus !== null
          ? {
              at: row.lastRefusalAt.toISOString(),
              status: row.lastRefusalStatus,
              scope: row.lastRefusalScope,
              message: row.lastRefusalMessage,
            }
          : null;
      if (lastRefusal && (!row.lastSuccessAt || row.lastSuccessAt < row.lastRefusalAt!))
        problems.push({ kind: "refused", ...lastRefusal });
      if (row.slot === "next" && row.inUseSince) problems.push({ kind: "rotation", since: row.inUseSince.toISOString() });
      const stoppedSince = whenStopped(row, problems, withNext.has(row.name));
      return {
        lookup: row.lookup,
        name,
        slot: row.slot === "next" ? "next" : "active",
        scopes: row.scopes,
        heldBy: row.heldBy,
        expiresAt: row.expiresAt?.toISOString() ?? null,
        lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
        lastRefusal,
        inUseSince: row.inUseSince?.toISOString() ?? null,
        problems,
        state: stoppedSince ? "stopped" : problems.length ? "attention" : row.lastSuccessAt ? "healthy" : "unused",
        stoppedSince,
        fix: { variable, localMode },
      };
    })
    .sort((a, b) => (ORDER.get(a.name) ?? 9) - (ORDER.get(b.name) ?? 9) || a.slot.localeCompare(b.slot));
}

/**
 * When the work a key serves stopped for everyone, or null. A 401 or an expiry stops it unless
 * this is the active key and a next one is configured (the client switches to it); a 403 stops
 * it whatever the slot, since no key is switched to for a missing scope.
 */
function whenStopped(
  row: { slot: string; refusedSince: Date | null },
  problems: KeyProblem[],
  nextConfigured: boolean,
): string | null {
  const replaced = row.slot === "active" && nextConfigured;
  for (const problem of problems) {
    if (problem.kind === "refused" && (problem.status === 403 || !replaced))
      return (row.refusedSince ?? new Date(problem.at)).toISOString();
    if (problem.kind === "expired" && !replaced) return problem.at;
  }
  return null;
}

/** How a key is named to people: "the ordering key (svckey_abc…)". */
export function keyWords(key: Pick<KeyHealthView, "name" | "slot" | "lookup">): string {
  const name = key.name === "general" ? "general key" : `${key.name} key`;
  return `${key.slot === "next" ? "next " : ""}${name} svckey_${key.lookup}_…`;
}
