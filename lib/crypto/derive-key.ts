import { hkdfSync } from "node:crypto";

/**
 * What each derived key is for: HKDF's `info`, so that no two uses ever share a key. Fixed
 * strings: changing one leaves whatever it sealed unopenable. (The session cookie's key is
 * next-auth's own business: lib/auth/session-token.ts.)
 */
export const KEY_PURPOSES = {
  /** TOTP seeds at rest, from SECOND_FACTOR_KEY. */
  secondFactorSeal: "dgis second-factor seal v1",
  /** The workspace's chat webhook URL at rest, from AUTH_SECRET. */
  chatWebhook: "dgis notification chat webhook v1",
  /** The SSO round trip's state cookie, from AUTH_SECRET. */
  ssoFlow: "Back-office SSO flow",
  /** The emailed link to a month's journal (lib/books/delivery-link.ts), from AUTH_SECRET. */
  journalLink: "dgis journal delivery link v1",
} as const;
export type KeyPurpose = keyof typeof KEY_PURPOSES;

const derived = new Map<string, Buffer>();

/**
 * The 32-byte key for `purpose` from `material` (HKDF-SHA256, no salt). Derived once per
 * material and purpose in a process: callers ask on every use and pass the configured
 * material, so a changed secret simply derives a new key.
 */
export function deriveKey(material: string, purpose: KeyPurpose): Buffer {
  const id = `${purpose}\u0000${material}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", material, "", KEY_PURPOSES[purpose], 32));
    derived.set(id, key);
  }
  return key;
}
