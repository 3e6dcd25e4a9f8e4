import { Secret, TOTP } from "otpauth";

/**
 * RFC 6238 codes through otpauth: SHA-1, 6 digits, 30-second steps (what every authenticator
 * app does by default). A code is accepted for the current step and one either side (clock
 * drift), and only for a step later than the last one accepted: a code seen once, or an
 * earlier one, is refused as reused for as long as it would otherwise be valid.
 */
export const TOTP_PERIOD_S = 30;
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUri(secretBase32: string, account: string, issuer: string): string {
  return totpOf(secretBase32, account, issuer).toString();
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: "wrong" | "reused" };

export function checkTotp(secretBase32: string, code: string, lastStep: number | null, now = Date.now()): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false, reason: "wrong" };
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return { ok: false, reason: "wrong" };
  const step = Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  if (lastStep !== null && step <= lastStep) return { ok: false, reason: "reused" };
  return { ok: true, step };
}

/** The code an authenticator shows at `now` (tests; the app never generates codes for a person). */
export function totpCodeAt(secretBase32: string, now: number): string {
  return totpOf(secretBase32).generate({ timestamp: now });
}

function totpOf(secretBase32: string, label = "", issuer = ""): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}
