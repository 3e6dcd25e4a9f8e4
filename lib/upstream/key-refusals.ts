import type { Tx } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { KeyName, Scope } from "@/lib/upstream/client";

/**
 * What key health learns that someone must act on: the upstream refused a key outright (401,
 * the first refusal of an episode) or for a scope (403, the first for that key and scope).
 * Told once, in the transaction that records it on the key's row.
 */
export type KeyRefusal = {
  status: 401 | 403;
  key: KeyName;
  /** The key's public lookup segment, never the secret. */
  lookup: string;
  scope: Scope;
  /** The upstream's own words, cut short. */
  message: string;
  correlationId: string | null;
  /** When the refusal was recorded: a 401 names its episode by it. */
  at: Date;
};

export type KeyRefusalListener = (tx: Tx, refusal: KeyRefusal) => Promise<void>;

const registry = globalThis as unknown as { __keyRefusalListener?: KeyRefusalListener };

/**
 * The seam between the upstream layer and the domains: the upstream knows that a key was
 * refused, a domain decides who hears and what is audited (lib/settings/key-refused.ts),
 * registered at each process's start-up. On globalThis, as Next bundles the start-up hook apart
 * from the routes.
 */
export function onKeyRefusal(listener: KeyRefusalListener): void {
  registry.__keyRefusalListener = listener;
}

export async function reportKeyRefusal(tx: Tx, refusal: KeyRefusal): Promise<void> {
  const listener = registry.__keyRefusalListener;
  if (!listener) {
    logger.error("key refusal not reported: no listener registered at start-up", { key: refusal.key, lookup: refusal.lookup });
    return;
  }
  await listener(tx, refusal);
}
