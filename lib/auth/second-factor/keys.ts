import "server-only";
import { getEnv } from "@/lib/env";
import { deriveKey } from "@/lib/crypto/derive-key";

/** The sealing key from SECOND_FACTOR_KEY (the launcher provides one in local mode). */
export function sealKey(): Buffer {
  const material = getEnv().SECOND_FACTOR_KEY;
  if (!material) throw new Error("Configuration error: SECOND_FACTOR_KEY is required to use authenticator apps.");
  return deriveKey(material, "secondFactorSeal");
}

/** The relying party of passkeys: this app's public origin and its host name. */
export function relyingParty() {
  const url = new URL(getEnv().APP_URL);
  return { id: url.hostname, origin: url.origin, name: "Digital-Goods back-office" };
}

/** How long a proof lets sensitive actions through (STEP_UP_WINDOW_SECONDS). */
export function stepUpWindowMs(): number {
  return getEnv().STEP_UP_WINDOW_SECONDS * 1000;
}
