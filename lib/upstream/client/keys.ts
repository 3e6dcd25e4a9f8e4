/**
 * Which key each call is sent with. The contract (§5) gives every key a set of scopes and keeps
 * `wallet.withdraw` apart from `wallet.read` on purpose, so the app may be given one key per
 * capability, each with its own rotation (`KEY_SCOPES` below; the payout key is the worker's
 * only, ARCHITECTURE.md "Keys by process"), or the general key (`SERVICE_API_KEY`). A call goes
 * out with the narrowest configured key that serves its endpoint's scope (./endpoints.ts), never
 * a broader one when a narrower one is configured; a process with no key for the scope refuses
 * the call unsent.
 */

/** The contract's scopes (§5). */
export const SCOPES = [
  "products.read",
  "quotes.create",
  "orders.create",
  "orders.read",
  "wallet.read",
  "wallet.deposit-address.write",
  "wallet.withdraw",
] as const;
export type Scope = (typeof SCOPES)[number];

export type KeyName = "read" | "ordering" | "payout" | "general";

/** What each capability key is for; the general key serves every scope. */
export const KEY_SCOPES: Record<KeyName, readonly Scope[]> = {
  read: ["products.read", "orders.read", "wallet.read"],
  ordering: ["quotes.create", "orders.create"],
  payout: ["wallet.withdraw", "wallet.deposit-address.write"],
  general: SCOPES,
};

/** Narrowest first: a capability key is chosen over the general one for a scope both serve. */
const PREFERENCE: readonly KeyName[] = ["read", "ordering", "payout", "general"];

/** One configured key: the active one first, then the next (rotation), each with its expiry if known. */
export type KeySlotConfig = { name: KeyName; keys: string[]; expiresAt?: (Date | null)[] };

export type KeyChoice = { name: KeyName; key: string; index: number };

/** svckey_<lookup>_<secret> → <lookup>: the public part, the only one ever shown or stored. */
export function keyLookupSegment(key: string): string {
  const match = /^svckey_([^_]+)_/.exec(key);
  return match ? match[1]! : "(unrecognised key format)";
}

/**
 * The process's keys, each with its own rotation: a 401 on a slot's active key moves that slot
 * (only) to its next key, without a restart, as the single key did before.
 */
export function createKeyring(slots: KeySlotConfig[]) {
  const configured = new Map<KeyName, KeySlotConfig>();
  for (const slot of slots) {
    if (slot.keys.length === 0) continue;
    if (configured.has(slot.name)) throw new Error(`The ${slot.name} key is configured twice`);
    configured.set(slot.name, slot);
  }
  const active = new Map<KeyName, number>([...configured.keys()].map((name) => [name, 0]));

  function slotFor(scope: Scope): KeySlotConfig | undefined {
    for (const name of PREFERENCE) {
      const slot = configured.get(name);
      if (slot && KEY_SCOPES[name].includes(scope)) return slot;
    }
    return undefined;
  }

  return {
    /** The key to send a call needing `scope` with, or null when this process holds none that serves it. */
    choose(scope: Scope): KeyChoice | null {
      const slot = slotFor(scope);
      if (!slot) return null;
      const index = active.get(slot.name)!;
      return { name: slot.name, key: slot.keys[index]!, index };
    },
    /**
     * After a 401 on `choice`: "switched" when this moved its slot to the next key, "moved" when
     * another call already had (send again either way), "none" when there is no next key.
     */
    rotate(choice: KeyChoice): "switched" | "moved" | "none" {
      const index = active.get(choice.name)!;
      if (index > choice.index) return "moved";
      if (index + 1 >= configured.get(choice.name)!.keys.length) return "none";
      active.set(choice.name, index + 1);
      return "switched";
    },
    /** Each configured key, by its public lookup segment only (the status panel, key health). */
    describe() {
      return [...configured.values()].map((slot) => {
        const index = active.get(slot.name)!;
        return {
          name: slot.name,
          scopes: [...KEY_SCOPES[slot.name]],
          keys: slot.keys.map((key, i) => ({
            lookup: keyLookupSegment(key),
            role: i === 0 ? ("active" as const) : ("next" as const),
            inUse: i === index,
            expiresAt: slot.expiresAt?.[i] ?? null,
          })),
        };
      });
    },
    /** Whether any key of this process serves `scope`. */
    serves(scope: Scope): boolean {
      return slotFor(scope) !== undefined;
    },
  };
}

export type Keyring = ReturnType<typeof createKeyring>;
