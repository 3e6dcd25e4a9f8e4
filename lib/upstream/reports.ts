import type { Tx } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { KeyName, Scope, Spender } from "@/lib/upstream/client";

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

export type PersonSpender = Extract<Spender, { kind: "person" }>;

/** What the upstream layer reports; a domain decides who hears and what is audited. */
export type UpstreamListener = {
  keyRefused(tx: Tx, refusal: KeyRefusal): Promise<void>;
  /** A person's share of the budget refused them, the first time in a minute (after the call, outside any transaction). */
  shareRefused(by: PersonSpender): Promise<void>;
};

const registry = globalThis as unknown as { __upstreamListener?: UpstreamListener };

/**
 * The seam between the upstream layer and the domains, registered at each process's start-up
 * (lib/settings/listen-to-upstream.ts). On globalThis, as Next bundles the start-up hook apart
 * from the routes.
 */
export function listenToUpstream(listener: UpstreamListener): void {
  registry.__upstreamListener = listener;
}

function listener(what: string): UpstreamListener | undefined {
  const registered = registry.__upstreamListener;
  if (!registered) logger.error(`${what} not reported: nothing listens to the upstream (registered at start-up)`);
  return registered;
}

export async function reportKeyRefusal(tx: Tx, refusal: KeyRefusal): Promise<void> {
  await listener("a key refusal")?.keyRefused(tx, refusal);
}

export async function reportShareRefusal(by: Spender): Promise<void> {
  if (by.kind === "person") await listener("a share refusal")?.shareRefused(by);
}
