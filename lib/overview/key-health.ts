import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { KEY_VARIABLES } from "@/lib/env";
import { upstreamKeysAnnounced } from "@/lib/upstream/service";

/** A key's expiry is warned of this long ahead. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

export type KeyProblem =
  | { kind: "expired"; at: string }
  | { kind: "expires_soon"; at: string; days: number; nextVariable: string }
  | { kind: "refused"; status: number; scope: string | null; message: string | null; at: string }
  | { kind: "rotation"; since: string };

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
  return rows
    .map((row): KeyHealthView => {
      const name = (NAMES as readonly string[]).includes(row.name) ? (row.name as KeyHealthView["name"]) : "general";
      const problems: KeyProblem[] = [];
      if (row.expiresAt) {
        const days = Math.floor((row.expiresAt.getTime() - now.getTime()) / DAY_MS);
        if (row.expiresAt <= now) problems.push({ kind: "expired", at: row.expiresAt.toISOString() });
        else if (days < EXPIRY_WARNING_DAYS) {
          const variable =
            KEY_VARIABLES[(NAMES as readonly string[]).includes(row.name) ? (row.name as KeyHealthView["name"]) : "general"];
          problems.push({ kind: "expires_soon", at: row.expiresAt.toISOString(), days, nextVariable: `${variable}_NEXT` });
        }
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
      };
    })
    .sort((a, b) => (ORDER.get(a.name) ?? 9) - (ORDER.get(b.name) ?? 9) || a.slot.localeCompare(b.slot));
}

/** How a key is named to people: "the ordering key (svckey_abc…)". */
export function keyWords(key: Pick<KeyHealthView, "name" | "slot" | "lookup">): string {
  const name = key.name === "general" ? "general key" : `${key.name} key`;
  return `${key.slot === "next" ? "next " : ""}${name} svckey_${key.lookup}_…`;
}
